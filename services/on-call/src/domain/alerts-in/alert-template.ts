import { chargedNodes } from '../matching/alert-values.js';
import { evaluationBudget, type EvaluationBudget } from '../matching/evaluation-budget.js';
import { jsonPathIssue, pathShape, selectNodes } from '../matching/json-path.js';

/**
 * An alert source's `alert_template_attributes` (title, description, external_url): each
 * is either a JSON Path (RFC 9535, the matching engine's, checked the same way on write)
 * whose first node is the value, or text with `{{ <JSON Path> }}` placeholders, e.g.
 * `{{ $.labels.host }} is down`. Paths are judged on write, and each query is charged
 * to the payload's evaluation budget (the matching engine's, 100 ms of estimated work)
 * before it runs: thirty filter paths over a 500 KiB payload took 19 s uncharged.
 */

export const MAX_TEMPLATE_LENGTH = 1024;
const MAX_PLACEHOLDERS = 10;
const PLACEHOLDER = /\{\{\s*(\$[^}]*?)\s*\}\}/g;
/** A rendered value is cut here: a summary is a line, not a document. */
const MAX_RENDERED = 10_000;

/** Why `template` cannot be used, or null. */
export function templateIssue(template: string): string | null {
  if (template.length > MAX_TEMPLATE_LENGTH) return `is longer than ${MAX_TEMPLATE_LENGTH} characters`;
  if (template.startsWith('$')) return jsonPathIssue(template);
  const paths = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]);
  if (paths.length > MAX_PLACEHOLDERS) return `has more than ${MAX_PLACEHOLDERS} {{ }} placeholders`;
  for (const path of paths) {
    const issue = jsonPathIssue(path);
    if (issue) return `placeholder {{ ${path} }} ${issue}`;
  }
  return null;
}

function text(node: unknown): string | null {
  if (node === undefined || node === null) return null;
  if (typeof node === 'string') return node;
  if (typeof node === 'number' || typeof node === 'boolean') return String(node);
  return JSON.stringify(node);
}

// One holder per payload object, so the budget measures a payload's size once.
const subjects = new WeakMap<object, { payload: unknown }>();
function subjectOf(payload: unknown): { payload: unknown } {
  if (payload === null || typeof payload !== 'object') return { payload };
  let subject = subjects.get(payload);
  if (!subject) subjects.set(payload, (subject = { payload }));
  return subject;
}

/**
 * The first node `path` selects in `payload`, as text; null when it selects nothing.
 * Charged to `budget` (one per payload: payload-mapping.ts), which throws
 * EvaluationBudgetExceeded when the query would cost more than is left.
 */
export function pathText(payload: unknown, path: string, budget: EvaluationBudget = evaluationBudget()): string | null {
  // A path of names and indices is a walk of its few steps (json-path.ts): not charged, so
  // a thousand-alert Alertmanager notification with templated fields fits the budget.
  const [first] = pathShape(path)?.simple ? selectNodes(payload, path) : (chargedNodes(subjectOf(payload), path, budget) ?? []);
  return text(first);
}

/** `template` rendered over `payload`: null when it yields nothing but blanks. */
export function renderTemplate(template: string, payload: unknown, budget: EvaluationBudget = evaluationBudget()): string | null {
  const rendered = template.startsWith('$')
    ? pathText(payload, template, budget)
    : template.replace(PLACEHOLDER, (_m, path: string) => pathText(payload, path, budget) ?? '');
  const trimmed = rendered?.trim();
  return trimmed ? trimmed.slice(0, MAX_RENDERED) : null;
}
