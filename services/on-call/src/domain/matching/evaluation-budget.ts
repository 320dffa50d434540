import type { RE2JS } from 're2js';
import type { Observed } from './condition.types.js';

/**
 * What one evaluation may cost. Everything the engine does to an alert is bounded, but
 * the sum is not small: two hundred rules of fifty conditions over a 128 KiB payload,
 * or thousands of large regexes, would block the event loop for seconds. So each
 * evaluation carries a budget of about 100 ms of estimated work, and every step is
 * charged BEFORE it runs, from sizes alone (never from the clock), so the same rules
 * and alert always get the same answer: a JSON Path query by the payload's size and the
 * path's work factor, each condition, each text and value it compares, each regex
 * compile (once per pattern per evaluation) and each run at its worst case (an NFA step
 * per instruction per character). Running out throws EvaluationBudgetExceeded, which
 * evaluate endpoints answer with a 422; nothing is half-answered.
 */

/** Estimated worst-case costs (ns), measured on re2js and jsonpath-rfc9535 on a 2-core machine. */
export const COSTS = {
  /** One compiled RE2 instruction over one character: the NFA's worst case. */
  regexStep: 20,
  /** A regex compile: a base, per character of the pattern (Unicode classes), per instruction. */
  compileBase: 100_000,
  compileChar: 20_000,
  compileInstruction: 6_000,
  /** One character a case-insensitive class range folds while compiling (regex-folding.ts). */
  compileFold: 40,
  /** One character scanned by a plain text comparison (contains, starts_with, equality). */
  char: 1,
  /** One text or value visited (a payload node turned to text, a set look-up, a comparison begun). */
  item: 50,
  /** One condition judged and explained. */
  condition: 2_000,
  /** Any JSON Path query's fixed part (judging the path, the library's parse and set-up): 10 000 distinct ones took 145-220 ms. */
  query: 20_000,
  /** One character of a JSON Path, parsed (a path is parsed to judge it, and again by each query). */
  pathChar: 400,
  /** Reading a payload once (its size, depth, nodes): per byte of its JSON. */
  payloadRead: 60,
  /** A query that is not simple, per node and per byte of the payload, times the path's work factor (json-path.work.ts). */
  payloadNode: 300,
  payloadByte: 100,
  /** One filter test on one node, in node visits (on top of the subtree it may compare: the payload's depth). */
  filterTest: 8,
} as const;

/** The budget of one evaluation: about 100 ms of work at worst. */
export const EVALUATION_BUDGET_NS = 100_000_000;

/** Thrown when an evaluation would cost more than its budget. */
export class EvaluationBudgetExceeded extends Error {
  constructor(readonly what: string) {
    super(
      `The alert is too much to evaluate against these conditions in one request (${what}); send a smaller payload or shorter fields, or use fewer or simpler conditions.`,
    );
    this.name = 'EvaluationBudgetExceeded';
  }
}

/** What an evaluation learnt of a payload once: its JSON size, its nodes and how deep it nests. */
export interface PayloadStats {
  bytes: number;
  nodes: number;
  depth: number;
}

/**
 * One evaluation's budget, and what it has already computed and paid for: payload
 * observations per alert and path, payload sizes, and compiled patterns (null: unusable).
 */
export interface EvaluationBudget {
  remaining: number;
  observations: WeakMap<object, Map<string, Observed>>;
  payloads: WeakMap<object, PayloadStats>;
  patterns: Map<string, RE2JS | null>;
}

/** A fresh budget; share one across every rule or group an evaluation tries. */
export function evaluationBudget(ns: number = EVALUATION_BUDGET_NS): EvaluationBudget {
  return { remaining: ns, observations: new WeakMap(), payloads: new WeakMap(), patterns: new Map() };
}

/** Takes `ns` from the budget before the work, or throws when it does not have them. */
export function spend(budget: EvaluationBudget, ns: number, what: string): void {
  if (ns > budget.remaining) throw new EvaluationBudgetExceeded(what);
  budget.remaining -= ns;
}
