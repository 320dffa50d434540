import type { AlertInput, Condition, Observed } from './condition.types.js';
import { COSTS, spend, type EvaluationBudget, type PayloadStats } from './evaluation-budget.js';
import { pathShape, selectNodes } from './json-path.js';
import type { PathWork } from './json-path.work.js';

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

/** What holds a payload: an alert, or (ingestion) the payload alone. */
type Subject = Pick<AlertInput, 'payload'>;

/** The payload's JSON size, nodes and nesting depth, measured once per evaluation (iteratively: payloads nest up to 64 levels). */
function payloadStats(alert: Subject, budget: EvaluationBudget): PayloadStats {
  let stats = budget.payloads.get(alert);
  if (!stats) {
    const bytes = alert.payload === undefined ? 0 : JSON.stringify(alert.payload).length;
    spend(budget, COSTS.payloadRead * Math.max(bytes, 1), `reading a payload of ${bytes} bytes`);
    let depth = 0;
    let nodes = 0;
    const pending: [unknown, number][] = [[alert.payload, 0]];
    for (let next = pending.pop(); next; next = pending.pop()) {
      const [node, level] = next;
      nodes++;
      if (node === null || typeof node !== 'object') continue;
      depth = Math.max(depth, level + 1);
      for (const child of Object.values(node)) pending.push([child, level + 1]);
    }
    budget.payloads.set(alert, (stats = { bytes, nodes, depth }));
  }
  return stats;
}

/** What `path` costs on `alert`'s payload: a fixed amount, and unless the path is simple, its work factor times the payload's size. */
function queryCost(alert: Subject, path: string, work: PathWork, budget: EvaluationBudget): [number, string] {
  if (work.simple) return [COSTS.query, `the JSON Path ${path}`];
  const { bytes, nodes, depth } = payloadStats(alert, budget);
  // A filter's test costs several node visits, and may compare a subtree with another:
  // summed over the nodes, at most the payload's depth times its size.
  const factor = work.fanout * work.segments * (1 + work.tests * (COSTS.filterTest + depth));
  return [
    COSTS.query + (COSTS.payloadNode * nodes + COSTS.payloadByte * Math.max(bytes, 1)) * factor,
    `the JSON Path ${path} over a payload of ${bytes} bytes`,
  ];
}

/**
 * What `path` observes in the payload: from the evaluation's memo, or queried, turned to
 * texts and remembered, charged to its budget before the query (by the payload's size
 * and the path's work) and for the nodes it found.
 */
function payloadObservation(alert: AlertInput, path: string, budget: EvaluationBudget): Observed {
  let memo = budget.observations.get(alert);
  if (!memo) budget.observations.set(alert, (memo = new Map()));
  let seen = memo.get(path);
  if (!seen) {
    const nodes = chargedNodes(alert, path, budget);
    const texts = (nodes ?? []).map(nodeText).filter((t): t is string => t !== null);
    seen = { texts, set: texts.length > 0 || (nodes ?? []).some(structured) };
    memo.set(path, seen);
  }
  return seen;
}

/**
 * The nodes `path` selects in `subject`'s payload, charged to `budget` before the query
 * (its parse, the payload's size times the path's work) and for the nodes found; null
 * for a path that does not pass the write-time checks (it is not queried). Ingestion's
 * templates and keys are charged by it as evaluations are (alert-template.ts).
 */
export function chargedNodes(subject: Subject, path: string, budget: EvaluationBudget): unknown[] | null {
  // Parsing is not free either: 10 000 distinct 500-character paths took 0.7-1.5 s.
  spend(budget, COSTS.pathChar * path.length, `parsing the JSON Path ${path.slice(0, 40)}`);
  const work = pathShape(path);
  if (work === null) return null;
  spend(budget, ...queryCost(subject, path, work, budget));
  const nodes = selectNodes(subject.payload, path);
  spend(budget, COSTS.item * nodes.length, `${nodes.length} nodes of the JSON Path ${path}`);
  return nodes;
}

/**
 * The values `alert` holds for `condition`'s kind (and property); payload queries are
 * charged to `budget`, once per path. The result is shared: callers must not change it.
 */
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
      return {
        texts: ids(one(alert.source_id)),
        ...(alias === undefined ? {} : { alias }),
        set: alias !== undefined || one(alert.source_id).length > 0,
      };
    }
    case 'alert_field':
      return withSet({ texts: one(Object.hasOwn(alert.fields ?? {}, name) ? alert.fields?.[name] : null) });
    case 'attribute':
      return withSet({ texts: one(name === 'summary' || name === 'description' || name === 'external_url' ? alert[name] : null) });
    case 'payload':
      return payloadObservation(alert, name, budget);
  }
}

function withSet(observed: Omit<Observed, 'set'>): Observed {
  return { ...observed, set: observed.texts.length > 0 };
}
