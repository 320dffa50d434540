import type { Row } from '@firewatch/resource-kit';
import { alertInputOf } from '../alerts-in/alert-input.js';
import { evaluateCondition, type Condition, type EvaluationBudget, type Operator } from '../matching/index.js';
import { withinBusinessHours, type BusinessHours } from './time-windows.js';

/** One rule of a path, as stored (the reference's path rule objects; only `rule_type` is sure). */
export type PathRule = { rule_type: string } & Record<string, unknown>;

/** A path rule's operator as the matching engine's: the operator, and whether the engine's verdict is turned over. */
const OPERATORS: Record<string, [Operator, boolean]> = {
  is: ['is_one_of', false],
  is_not: ['is_one_of', true],
  is_one_of: ['is_one_of', false],
  is_not_one_of: ['is_one_of', true],
  contains: ['contains', false],
  does_not_contain: ['contains', true],
  starts_with: ['starts_with', false],
  does_not_start_with: ['starts_with', true],
  matches: ['matches_regex', false],
  does_not_match: ['matches_regex', true],
  is_set: ['is_set', false],
  is_not_set: ['is_set', true],
  is_not_empty: ['is_set', false],
  is_empty: ['is_set', true],
  contains_key: ['is_set', false],
  does_not_contain_key: ['is_set', true],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * A value rule (json_path over the payload, field over an alert field) as an engine
 * condition. `value` and `values` are both compared (`is` takes `value`, `is_one_of`
 * `values`); `contains_key` asks whether the member named by `value` is set under the path.
 */
function valueCondition(rule: PathRule, kind: 'payload' | 'alert_field', name: string): [Condition, boolean] | null {
  const operator = OPERATORS[String(rule.operator)];
  if (!operator) return null;
  const values = [...strings(rule.values), ...(typeof rule.value === 'string' ? [rule.value] : [])];
  let property = name;
  if (rule.operator === 'contains_key' || rule.operator === 'does_not_contain_key') {
    if (kind !== 'payload' || typeof rule.value !== 'string') return null;
    property = `${name}[${JSON.stringify(rule.value)}]`;
  }
  return [{ kind, operator: operator[0], property_field_name: property, values }, operator[1]];
}

/** The engine condition of a rule, and whether its verdict is turned over; null for a rule it does not judge. */
function conditionOf(rule: PathRule): [Condition, boolean] | null {
  switch (rule.rule_type) {
    case 'alert_urgency':
      return [{ kind: 'urgency', operator: 'is_one_of', record_ids: strings(rule.urgency_ids) }, false];
    case 'service':
      return [{ kind: 'service', operator: 'is_one_of', record_ids: strings(rule.service_ids) }, false];
    case 'source': {
      // The alert's source by alias (datadog, manual, api…) or an alert source's id.
      const values = strings(rule.values);
      const turned = rule.operator === 'is_not' || rule.operator === 'is_not_one_of';
      return [{ kind: 'source', operator: 'is_one_of', values, record_ids: values.filter((v) => UUID.test(v)) }, turned];
    }
    case 'json_path':
      return typeof rule.json_path === 'string' ? valueCondition(rule, 'payload', rule.json_path) : null;
    case 'field':
      return typeof rule.fieldable_id === 'string' ? valueCondition(rule, 'alert_field', rule.fieldable_id) : null;
    default:
      return null;
  }
}

/** Whether one rule holds for the alert at `at`, and a sentence saying what it saw. */
export function judgeRule(rule: PathRule, alert: Row, hours: BusinessHours | null, at: Date, budget: EvaluationBudget) {
  if (rule.rule_type === 'working_hour') {
    const within = withinBusinessHours(hours, at);
    const wanted = rule.within_working_hour !== false;
    return {
      matched: within === wanted,
      why: `working_hour: ${at.toISOString()} is ${within ? 'within' : 'outside'} the policy's business hours${hours ? '' : ' (none set)'}`,
    };
  }
  if (rule.rule_type === 'related_incidents') {
    // on-call links no incidents to alerts (incidents are incident-config's): an alert never has related incidents here.
    const matched = rule.operator === 'is_not_set';
    return {
      matched,
      why: `related_incidents ${String(rule.operator)}: the alert has no related incidents known to on-call; ${matched ? 'matched' : 'not matched'}`,
    };
  }
  if (rule.rule_type === 'deferral_window') return { matched: false, why: 'deferral_window: deferral paths are not served; not matched' };
  const condition = conditionOf(rule);
  if (!condition) return { matched: false, why: `${rule.rule_type}: a rule this version cannot judge; not matched` };
  const [engine, turned] = condition;
  const verdict = evaluateCondition(engine, 0, alertInputOf(alert), {}, budget);
  const matched = turned ? !verdict.matched : verdict.matched;
  const asked = typeof rule.operator === 'string' ? rule.operator : 'is_one_of';
  return {
    matched,
    why: `${rule.rule_type} ${asked}: ${verdict.reason.replace(/; [a-z_]+: (matched|did not match)$/, '')}; ${matched ? 'matched' : 'not matched'}`,
  };
}

/** Whether a path's rules hold per its match mode ('match-any-rule', else every rule); no rules hold always. */
export function judgeRules(
  rules: readonly PathRule[],
  matchMode: string,
  alert: Row,
  hours: BusinessHours | null,
  at: Date,
  budget: EvaluationBudget,
): { matched: boolean; why: string[] } {
  if (!rules.length) return { matched: true, why: ['no rules'] };
  const verdicts = rules.map((r) => judgeRule(r, alert, hours, at, budget));
  const matched = matchMode === 'match-any-rule' ? verdicts.some((v) => v.matched) : verdicts.every((v) => v.matched);
  return { matched, why: verdicts.map((v) => v.why) };
}
