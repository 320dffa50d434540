import { evaluateConditions } from './condition-evaluator.js';
import type { AlertInput, Condition, ConditionExplanation, MatchContext, MatchMode } from './condition.types.js';
import { evaluationBudget, type EvaluationBudget } from './evaluation-budget.js';

/** What the selector needs of a rule (a re-trigger rule, an alert group). */
export interface RankedRule {
  id: string;
  /** Lower first; null after every numbered rule. */
  position: number | null;
  /** Breaks ties of position, older first, so the order never depends on storage. */
  created_at?: string | Date | null;
  conditions: readonly Condition[];
}

/** One rule's verdict. */
export interface RuleVerdict<R> {
  rule: R;
  matched: boolean;
  conditions: ConditionExplanation[];
}

/** The rule that decides, if any, and every rule looked at until then. */
export interface RuleSelection<R> {
  rule: R | null;
  evaluated: RuleVerdict<R>[];
}

function stamp(value: RankedRule['created_at']): string {
  if (value instanceof Date) return value.toISOString();
  return value ?? '';
}

/** Rules in evaluation order: ascending position, then creation, then id. */
export function evaluationOrder<R extends RankedRule>(rules: readonly R[]): R[] {
  return [...rules].sort(
    (a, b) =>
      (a.position ?? Number.POSITIVE_INFINITY) - (b.position ?? Number.POSITIVE_INFINITY) ||
      stamp(a.created_at).localeCompare(stamp(b.created_at)) ||
      a.id.localeCompare(b.id),
  );
}

/**
 * The first rule, in evaluation order, whose conditions `alert` meets in the rule's
 * match mode; null when none does (for re-trigger rules: the alert is not re-triggered).
 * Rules after the winner are not evaluated, as they could not change the outcome.
 */
export function selectRule<R extends RankedRule>(
  rules: readonly R[],
  alert: AlertInput,
  modeOf: (rule: R) => MatchMode,
  context: MatchContext = {},
  // One budget for all the rules (pass one to share it further): an evaluation is what must stay cheap.
  budget: EvaluationBudget = evaluationBudget(),
): RuleSelection<R> {
  const evaluated: RuleVerdict<R>[] = [];
  for (const rule of evaluationOrder(rules)) {
    const result = evaluateConditions(rule.conditions, modeOf(rule), alert, context, budget);
    evaluated.push({ rule, matched: result.matched, conditions: result.conditions });
    if (result.matched) return { rule, evaluated };
  }
  return { rule: null, evaluated };
}
