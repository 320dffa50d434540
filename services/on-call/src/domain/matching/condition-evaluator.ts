import { observe, type Observed } from './alert-values.js';
import type { AlertInput, Condition, ConditionExplanation, ConditionSetResult, MatchContext, MatchMode, Operator } from './condition.types.js';
import { COSTS, evaluationBudget, spend, type EvaluationBudget } from './evaluation-budget.js';
import { regexFinds } from './safe-regex.js';

/**
 * The rule engine's core: whether an alert meets a condition, and a set of conditions
 * in a match mode. Pure and synchronous; conditions are assumed valid (the write-time
 * checks of condition.schema.ts), and a condition that still cannot be judged (say, a
 * kind the operator does not fit) simply does not match. Work is charged to the
 * evaluation's budget (evaluation-budget.ts), which throws when it runs out.
 */

/** Operators that are the negation of another: they hold exactly when it does not. */
const NEGATIONS: Partial<Record<Operator, Operator>> = {
  is_not_one_of: 'is_one_of',
  is_not_set: 'is_set',
  is_empty: 'is_set',
  does_not_contain: 'contains',
};

const TEXT_TESTS: Partial<Record<Operator, (text: string, value: string, budget: EvaluationBudget) => boolean>> = {
  contains: (text, value) => text.includes(value),
  starts_with: (text, value) => text.startsWith(value),
  ends_with: (text, value) => text.endsWith(value),
  matches_regex: (text, pattern, budget) => regexFinds(pattern, text, budget),
};

const RECORD_KINDS: readonly Condition['kind'][] = ['urgency', 'service', 'group'];

function lower(list: readonly string[] | null | undefined): string[] {
  return (list ?? []).map((v) => v.toLowerCase());
}

/** Plain comparisons scan the alert's texts once per value they are compared with. */
function chargeScan(seen: Observed, comparisons: number, budget: EvaluationBudget): void {
  const chars = seen.texts.reduce((n, t) => n + t.length, 0) * Math.max(comparisons, 1);
  spend(budget, COSTS.char * chars, `${comparisons} values against ${chars} characters`);
}

function isOneOf(condition: Condition, seen: Observed): boolean {
  if (condition.kind === 'source') {
    const recordIds = lower(condition.record_ids);
    return seen.texts.some((t) => recordIds.includes(t)) || (seen.alias !== undefined && (condition.values ?? []).includes(seen.alias));
  }
  if (RECORD_KINDS.includes(condition.kind)) {
    const recordIds = lower(condition.record_ids);
    return seen.texts.some((t) => recordIds.includes(t));
  }
  const values = condition.values ?? [];
  return seen.texts.some((t) => values.includes(t));
}

function holds(condition: Condition, operator: Operator, seen: Observed, context: MatchContext, budget: EvaluationBudget): boolean {
  const negated = NEGATIONS[operator];
  if (negated) return !holds(condition, negated, seen, context, budget);
  switch (operator) {
    case 'is_set':
      return seen.set;
    case 'is_one_of':
      chargeScan(seen, 1, budget);
      return isOneOf(condition, seen);
    case 'matches_existing_alert': {
      const mine = [...seen.texts, ...(seen.alias === undefined ? [] : [seen.alias])];
      return (context.existing_alerts ?? []).some((other) => {
        const theirs = observe(other, condition, budget);
        chargeScan(theirs, mine.length, budget);
        return mine.some((t) => theirs.texts.includes(t) || theirs.alias === t);
      });
    }
    default: {
      const test = TEXT_TESTS[operator];
      const values = condition.values ?? [];
      if (operator !== 'matches_regex') chargeScan(seen, values.length, budget);
      return test !== undefined && seen.texts.some((text) => values.some((value) => test(text, value, budget)));
    }
  }
}

function reason(condition: Condition, seen: Observed, matched: boolean): string {
  const shown = [...seen.texts, ...(seen.alias === undefined ? [] : [seen.alias])].slice(0, 5).map((t) => JSON.stringify(t.length > 80 ? `${t.slice(0, 80)}…` : t));
  const where = condition.property_field_name ? `${condition.kind} ${condition.property_field_name}` : condition.kind;
  const had = shown.length ? `has ${shown.join(', ')}` : seen.set ? 'is set (not text)' : 'is not set';
  return `${where} ${had}; ${condition.operator}: ${matched ? 'matched' : 'did not match'}`;
}

/**
 * Whether `alert` meets one condition, and why. `budget` is the whole evaluation's
 * (share it); a condition judged on its own gets a fresh one.
 */
export function evaluateCondition(
  condition: Condition, index: number, alert: AlertInput, context: MatchContext = {}, budget: EvaluationBudget = evaluationBudget(),
): ConditionExplanation {
  const seen = observe(alert, condition, budget);
  const matched = holds(condition, condition.operator, seen, context, budget);
  return {
    id: condition.id ?? null,
    index,
    kind: condition.kind,
    operator: condition.operator,
    property_field_name: condition.property_field_name ?? null,
    matched,
    reason: reason(condition, seen, matched),
  };
}

/**
 * Whether `alert` meets a set of conditions: `all` needs every one, `any` one of them;
 * an empty set matches every alert. Every condition is explained, even after the
 * outcome is known, so an operator sees the whole picture.
 */
export function evaluateConditions(
  conditions: readonly Condition[], mode: MatchMode, alert: AlertInput, context: MatchContext = {}, budget: EvaluationBudget = evaluationBudget(),
): ConditionSetResult {
  const explained = conditions.map((c, i) => evaluateCondition(c, i, alert, context, budget));
  if (explained.length === 0) return { matched: true, conditions: [] };
  const matched = mode === 'all' ? explained.every((c) => c.matched) : explained.some((c) => c.matched);
  return { matched, conditions: explained };
}
