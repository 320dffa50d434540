/**
 * The condition-matching engine of re-trigger rules and alert groups: pure functions,
 * no I/O. Validate conditions on write (`conditionSchema`/`conditionProblems`), then
 * evaluate them against alerts (`evaluateConditions`, `selectRule`).
 */
export * from './condition.types.js';
export {
  conditionChars,
  conditionProblems,
  conditionSchema,
  conditionsSchema,
  MAX_CONDITION_CHARS,
  MAX_CONDITIONS,
  MAX_CONDITION_VALUES,
  MAX_PATTERNS,
  MAX_VALUE_LENGTH,
  patternCount,
  refineUniqueIds,
  type ConditionProblem,
} from './condition.schema.js';
export { evaluateCondition, evaluateConditions } from './condition-evaluator.js';
export { evaluationOrder, selectRule, type RankedRule, type RuleSelection, type RuleVerdict } from './rule-selector.js';
export { GROUP_VOCABULARY, RETRIGGER_VOCABULARY, ROUTING_VOCABULARY, operatorsFor, type Vocabulary } from './vocabulary.js';
export { jsonPathIssue, MAX_JSON_PATH_LENGTH } from './json-path.js';
export { alertInputSchema, MAX_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH } from './alert-input.schema.js';
export { patternCompileCost, regexIssue } from './safe-regex.js';
export { COSTS, EVALUATION_BUDGET_NS, evaluationBudget, EvaluationBudgetExceeded, type EvaluationBudget } from './evaluation-budget.js';
