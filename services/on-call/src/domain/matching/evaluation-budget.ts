/**
 * What one evaluation may cost. Everything the engine does to an alert is linear, but
 * the sum is not small: a hundred rules of fifty conditions over a 128 KiB payload, or
 * a regex whose compiled program is large (RE2 is linear in the input with the
 * program's size as its constant), would block the event loop for seconds. So each
 * evaluation carries a budget of about 100 ms, and running out throws
 * EvaluationBudgetExceeded, which evaluate endpoints answer with a 422. JSON Path
 * queries and plain comparisons are charged before the work from deterministic sizes.
 * A regex run is different: its worst case (an NFA step per instruction per
 * character) is hundreds of times what re2js' DFA usually takes, so charging it would
 * refuse ordinary rule sets. A run is refused only when its worst case alone exceeds
 * REGEX_RUN_LIMIT_NS, and is charged what it actually took.
 */

/** Estimated worst-case costs, measured on re2js and jsonpath-rfc9535 (ns). */
export const COSTS = {
  /** One compiled RE2 instruction over one character: the NFA's worst case, for REGEX_RUN_LIMIT_NS. */
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
/** The worst case one regex run may have (COSTS.regexStep × program size × length). */
export const REGEX_RUN_LIMIT_NS = 50_000_000;

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

/** Takes `ns` from the budget before the work, or throws when it does not have them. */
export function spend(budget: EvaluationBudget, ns: number, what: string): void {
  if (ns > budget.remaining) throw new EvaluationBudgetExceeded(what);
  budget.remaining -= ns;
}

/** Takes what work already done took; the next `spend` throws if that overdrew the budget. */
export function charge(budget: EvaluationBudget, ns: number): void {
  budget.remaining -= ns;
}
