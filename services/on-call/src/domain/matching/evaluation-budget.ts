/**
 * What one evaluation may cost. Everything the engine does to an alert is linear, but
 * the sum is not small: a hundred rules of fifty conditions over a 128 KiB payload, or
 * a regex whose compiled program is large (RE2 is linear in the input with the
 * program's size as its constant), would block the event loop for seconds. So each
 * evaluation carries a budget in estimated nanoseconds, charged before the work is
 * done from deterministic sizes (never from clocks: the same rules and alert always
 * cost the same), and running out throws EvaluationBudgetExceeded, which evaluate
 * endpoints answer with a 422.
 */

/** Estimated worst-case costs, measured on re2js and jsonpath-rfc9535 (ns). */
export const COSTS = {
  /** One compiled RE2 instruction over one character (NFA worst case; the DFA does far better). */
  regexStep: 20,
  /** One character scanned by a plain text comparison (contains, starts_with, equality). */
  char: 1,
  /** A JSON Path of names and indices only: it visits one node per segment. */
  simpleQuery: 1_000,
  /** One byte of payload JSON, for a path with wildcards, descendants, slices or filters. */
  payloadByte: 60,
} as const;

/** The budget of one evaluation: about 100 ms of work at worst. */
export const EVALUATION_BUDGET_NS = 100_000_000;

/** Thrown when an evaluation would cost more than its budget; nothing is half-answered. */
export class EvaluationBudgetExceeded extends Error {
  constructor(readonly what: string) {
    super(`The alert is too much to evaluate against these conditions in one request (${what}); send a smaller payload or shorter fields, or use fewer or simpler conditions.`);
    this.name = 'EvaluationBudgetExceeded';
  }
}

/** One evaluation's budget, and what it has already computed (JSON Path results and payload sizes, per alert). */
export interface EvaluationBudget {
  remaining: number;
  queries: WeakMap<object, Map<string, unknown[]>>;
  payloadBytes: WeakMap<object, number>;
}

/** A fresh budget; share one across every rule or group an evaluation tries. */
export function evaluationBudget(ns: number = EVALUATION_BUDGET_NS): EvaluationBudget {
  return { remaining: ns, queries: new WeakMap(), payloadBytes: new WeakMap() };
}

/** Takes `ns` from the budget, or throws when it does not have them. */
export function spend(budget: EvaluationBudget, ns: number, what: string): void {
  if (ns > budget.remaining) throw new EvaluationBudgetExceeded(what);
  budget.remaining -= ns;
}
