import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineAction, type Row } from '@firewatch/resource-kit';
import { alertInputSchema, selectRule, type Condition, type RankedRule, type RuleVerdict } from '../matching/index.js';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { withinBudget } from './alerts.shared.js';
import { retriggerConditionSchema, type RetriggerMatchMode } from './alert-retrigger-rules.schemas.js';

const TYPE = 'alert_retrigger_rule_evaluations';

const body = z.strictObject({
  data: z.strictObject({
    type: z.literal(TYPE),
    attributes: z.strictObject({ alert: alertInputSchema }),
  }),
});

/** A stored rule (its row, conditions as the kit presents them) as the selector ranks it. */
export interface StoredRule extends RankedRule {
  row: Row;
}

export function ranked(row: Row): StoredRule {
  const conditions = (row.conditions as Row[]).map((c): Condition => ({
    id: String(c.id),
    kind: c.kind as Condition['kind'],
    operator: c.operator as Condition['operator'],
    record_ids: c.record_ids as string[],
    values: c.values as string[],
    property_field_name: c.property_field_name as string | null,
  }));
  return { id: String(row.id), position: Number(row.position), created_at: row.created_at as Date, conditions, row };
}

function verdict({ rule, matched, conditions }: RuleVerdict<StoredRule>) {
  return {
    alert_retrigger_rule_id: rule.id,
    name: rule.row.name,
    position: rule.position,
    match_mode: rule.row.match_mode,
    matched,
    conditions: conditions.map((c) => ({
      id: c.id,
      index: c.index,
      kind: c.kind,
      operator: c.operator,
      property_field_name: c.property_field_name,
      matched: c.matched,
      reason: c.reason,
    })),
  };
}

/** How a rule combines its conditions. */
export const modeOf = (r: StoredRule) => ((r.row.match_mode as RetriggerMatchMode) === 'match-any-rule' ? 'any' : 'all');

const ruleVerdictSchema = {
  type: 'object',
  required: ['alert_retrigger_rule_id', 'name', 'position', 'match_mode', 'matched', 'conditions'],
  properties: {
    alert_retrigger_rule_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    position: { type: 'integer' },
    match_mode: { type: 'string' },
    matched: { type: 'boolean' },
    conditions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'index', 'kind', 'operator', 'property_field_name', 'matched', 'reason'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          index: { type: 'integer' },
          kind: retriggerConditionSchema.properties.kind,
          operator: retriggerConditionSchema.properties.operator,
          property_field_name: { type: ['string', 'null'] },
          matched: { type: 'boolean' },
          reason: { type: 'string' },
        },
      },
    },
  },
};

const responseSchema = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['id', 'type', 'attributes'],
      properties: {
        id: { type: 'string' },
        type: { type: 'string', enum: [TYPE] },
        attributes: {
          type: 'object',
          required: ['alert_retrigger_rule_id', 'timeout_minutes', 'retrigger', 'rules'],
          properties: {
            alert_retrigger_rule_id: {
              type: ['string', 'null'],
              format: 'uuid',
              description: 'The rule that decides; null when none matches.',
            },
            timeout_minutes: {
              type: ['integer', 'null'],
              description: "The deciding rule's timeout; null: the alert is not re-triggered.",
            },
            retrigger: { type: 'boolean', description: 'Whether the alert would be re-triggered at all.' },
            rules: {
              type: 'array',
              items: ruleVerdictSchema,
              description: 'Every rule tried, in evaluation order, up to the deciding one.',
            },
          },
        },
      },
    },
  },
};

/**
 * `POST /v1/alert_retrigger_rules/evaluate`: the rule that would decide an alert's
 * re-trigger timeout, and why. The team's rules are tried in ascending position (then
 * age); the first match wins, no match means no re-trigger. Nothing is stored: an
 * operator tests rules before alerts arrive. An alert whose evaluation would cost more
 * than the engine's budget is a 422 at /data/attributes/alert.
 */
export const alertRetriggerRuleEvaluateAction = defineAction<OnCallResourceDeps, z.infer<typeof body>>({
  name: 'evaluate',
  on: 'collection',
  method: 'post',
  capabilities: ['read'],
  body,
  summary: "Which re-trigger rule decides an alert's timeout, and why",
  response: {
    status: 200,
    schema: responseSchema,
    description: "The deciding rule (or none), its timeout, and each rule's and condition's verdict",
  },
  async run({
    body: {
      data: {
        attributes: { alert },
      },
    },
    resource,
  }) {
    const rules = (await resource.findWhere({})).map(ranked);
    const { rule, evaluated } = withinBudget(() => selectRule(rules, alert, modeOf));
    const timeout = rule ? (rule.row.timeout_minutes as number | null) : null;
    const attributes = {
      alert_retrigger_rule_id: rule?.id ?? null,
      timeout_minutes: timeout,
      retrigger: timeout !== null,
      rules: evaluated.map(verdict),
    };
    return { status: 200, document: { data: { id: randomUUID(), type: TYPE, attributes } } };
  },
});
