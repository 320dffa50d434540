import type { AlertInput, Condition } from './condition.types.js';
import { COSTS, spend, type EvaluationBudget } from './evaluation-budget.js';
import { isSimplePath, selectNodes } from './json-path.js';

/**
 * What an alert offers a condition to compare: its values as text. Record ids
 * (urgency, source, service, group) are compared case-insensitively as UUIDs are; text
 * as it is.
 */
export interface Observed {
  /** The alert's values as text (empty when it has none, or only values that are not text). */
  texts: string[];
  /** source only: the non-integration alias, compared against `values` (ids go in `texts`). */
  alias?: string;
  /** Whether the alert has the property at all (a payload object counts, though it has no text). */
  set: boolean;
}

const id = (value: string) => value.toLowerCase();

function ids(list: readonly string[] | null | undefined): string[] {
  return (list ?? []).filter((v) => typeof v === 'string' && v !== '').map(id);
}

function one(value: string | null | undefined): string[] {
  return typeof value === 'string' && value !== '' ? [value] : [];
}

/**
 * A payload node as text: strings as they are, numbers and booleans in their JSON form
 * (`42`, `true`), so `is_one_of ["42"]` and `matches_regex "^4"` see a number; null,
 * empty strings, objects and arrays are not compared (a path to an array's items,
 * `$.tags[*]`, compares each item).
 */
function nodeText(node: unknown): string | null {
  if (typeof node === 'string') return node === '' ? null : node;
  if (typeof node === 'number' || typeof node === 'boolean') return JSON.stringify(node);
  return null;
}

/** Whether a payload node counts as set although it has no text (a non-empty object or array). */
function structured(node: unknown): boolean {
  return node !== null && typeof node === 'object' && Object.keys(node).length > 0;
}

/** The payload nodes `path` selects, from the evaluation's memo or charged to its budget and remembered. */
function payloadNodes(alert: AlertInput, path: string, budget: EvaluationBudget): unknown[] {
  let memo = budget.queries.get(alert);
  if (!memo) budget.queries.set(alert, (memo = new Map()));
  let nodes = memo.get(path);
  if (!nodes) {
    if (isSimplePath(path)) spend(budget, COSTS.simpleQuery, `the JSON Path ${path}`);
    else {
      let bytes = budget.payloadBytes.get(alert);
      if (bytes === undefined) budget.payloadBytes.set(alert, (bytes = alert.payload === undefined ? 0 : JSON.stringify(alert.payload).length));
      spend(budget, COSTS.payloadByte * Math.max(bytes, 1), `the JSON Path ${path} over a payload of ${bytes} bytes`);
    }
    nodes = selectNodes(alert.payload, path);
    memo.set(path, nodes);
  }
  return nodes;
}

/** The values `alert` holds for `condition`'s kind (and property); payload queries are charged to `budget`. */
export function observe(alert: AlertInput, condition: Condition, budget: EvaluationBudget): Observed {
  const name = condition.property_field_name ?? '';
  switch (condition.kind) {
    case 'urgency':
      return withSet({ texts: ids(one(alert.urgency_id)) });
    case 'service':
      return withSet({ texts: ids(alert.service_ids) });
    case 'group':
      return withSet({ texts: ids(alert.group_ids) });
    case 'source': {
      const alias = one(alert.source)[0];
      return { texts: ids(one(alert.source_id)), ...(alias === undefined ? {} : { alias }), set: alias !== undefined || one(alert.source_id).length > 0 };
    }
    case 'alert_field':
      return withSet({ texts: one(Object.hasOwn(alert.fields ?? {}, name) ? alert.fields?.[name] : null) });
    case 'attribute':
      return withSet({ texts: one(name === 'summary' || name === 'description' || name === 'external_url' ? alert[name] : null) });
    case 'payload': {
      const nodes = payloadNodes(alert, name, budget);
      const texts = nodes.map(nodeText).filter((t): t is string => t !== null);
      return { texts, set: texts.length > 0 || nodes.some(structured) };
    }
  }
}

function withSet(observed: Omit<Observed, 'set'>): Observed {
  return { ...observed, set: observed.texts.length > 0 };
}
