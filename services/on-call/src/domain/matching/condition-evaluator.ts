import { observe } from './alert-values.js';
import type { Observed } from './condition.types.js';
import type {
  AlertInput,
  Condition,
  ConditionExplanation,
  ConditionSetResult,
  MatchContext,
  MatchMode,
  Operator,
} from './condition.types.js';
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

/** Kinds whose values are record ids (compared case-insensitively; a source may also have an alias). */
const RECORD_KINDS: readonly Condition['kind'][] = ['urgency', 'source', 'service', 'group'];

/** The texts `seen` offers a membership test: its texts, and a source's alias. */
function offered(seen: Observed): readonly string[] {
  return seen.alias === undefined ? seen.texts : [...seen.texts, seen.alias];
}

function characters(texts: readonly string[]): number {
  return texts.reduce((n, t) => n + t.length, 0);
}

/** A membership test: a set of the condition's values, each text looked up once. */
function isOneOf(condition: Condition, seen: Observed, budget: EvaluationBudget): boolean {
  const values = condition.values ?? [];
  const recordIds = condition.record_ids ?? [];
  spend(
    budget,
    COSTS.item * (seen.texts.length + 1 + values.length + recordIds.length) +
      COSTS.char * (characters(seen.texts) + (seen.alias?.length ?? 0)),
    `${seen.texts.length} values against ${values.length + recordIds.length} listed`,
  );
  if (RECORD_KINDS.includes(condition.kind)) {
    const ids = new Set(recordIds.map((v) => v.toLowerCase()));
    if (seen.texts.some((t) => ids.has(t))) return true;
    return condition.kind === 'source' && seen.alias !== undefined && values.includes(seen.alias);
  }
  const wanted = new Set(values);
  return seen.texts.some((t) => wanted.has(t));
}

/** matches_existing_alert: one existing alert has one of the same values at the same property. */
function matchesExisting(condition: Condition, seen: Observed, context: MatchContext, budget: EvaluationBudget): boolean {
  const mine = offered(seen);
  return (context.existing_alerts ?? []).some((other) => {
    const theirs = new Set(offered(observe(other, condition, budget)));
    spend(
      budget,
      COSTS.item * (mine.length + theirs.size + 1) + COSTS.char * characters(mine),
      `${mine.length} values against an existing alert's ${theirs.size}`,
    );
    return mine.some((t) => theirs.has(t));
  });
}

/** The text operators: every text against every value, each pair charged before the pairs are compared. */
function textTest(operator: Operator, condition: Condition, seen: Observed, budget: EvaluationBudget): boolean {
  const test = TEXT_TESTS[operator];
  const values = condition.values ?? [];
  if (!test) return false;
  if (operator !== 'matches_regex') {
    // Each pair: a call, and at worst a scan of the text (includes) per value.
    spend(
      budget,
      COSTS.item * seen.texts.length * values.length + COSTS.char * characters(seen.texts) * values.length,
      `${seen.texts.length} values × ${values.length} ${operator} comparisons`,
    );
  }
  return seen.texts.some((text) => values.some((value) => test(text, value, budget)));
}

function holds(condition: Condition, operator: Operator, seen: Observed, context: MatchContext, budget: EvaluationBudget): boolean {
  const negated = NEGATIONS[operator];
  if (negated) return !holds(condition, negated, seen, context, budget);
  switch (operator) {
    case 'is_set':
      return seen.set;
    case 'is_one_of':
      return isOneOf(condition, seen, budget);
    case 'matches_existing_alert':
      return matchesExisting(condition, seen, context, budget);
    default:
      return textTest(operator, condition, seen, budget);
  }
}

function reason(condition: Condition, seen: Observed, matched: boolean): string {
  // Only the first five are shown: a payload path may have found thousands.
  const first = seen.texts.slice(0, 5);
  if (seen.alias !== undefined && first.length < 5) first.push(seen.alias);
  const shown = first.map((t) => JSON.stringify(t.length > 80 ? `${t.slice(0, 80)}…` : t));
  const where = condition.property_field_name ? `${condition.kind} ${condition.property_field_name}` : condition.kind;
  const had = shown.length ? `has ${shown.join(', ')}` : seen.set ? 'is set (not text)' : 'is not set';
  return `${where} ${had}; ${condition.operator}: ${matched ? 'matched' : 'did not match'}`;
}

/**
 * Whether `alert` meets one condition, and why. `budget` is the whole evaluation's
 * (share it); a condition judged on its own gets a fresh one.
 */
export function evaluateCondition(
  condition: Condition,
  index: number,
  alert: AlertInput,
  context: MatchContext = {},
  budget: EvaluationBudget = evaluationBudget(),
): ConditionExplanation {
  spend(budget, COSTS.condition, 'judging a condition');
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
  conditions: readonly Condition[],
  mode: MatchMode,
  alert: AlertInput,
  context: MatchContext = {},
  budget: EvaluationBudget = evaluationBudget(),
): ConditionSetResult {
  const explained = conditions.map((c, i) => evaluateCondition(c, i, alert, context, budget));
  if (explained.length === 0) return { matched: true, conditions: [] };
  const matched = mode === 'all' ? explained.every((c) => c.matched) : explained.some((c) => c.matched);
  return { matched, conditions: explained };
}
