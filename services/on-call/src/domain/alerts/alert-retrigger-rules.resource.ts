import { z } from 'zod';
import type { ValidationIssue } from '@firewatch/errors';
import { defineResource, type HookContext, type Row } from '@firewatch/resource-kit';
import { conditionsSchema, RETRIGGER_VOCABULARY } from '../matching/index.js';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { MAX_POSITION, unknownUrgencies } from './alerts.shared.js';
import { alertRetriggerRuleEvaluateAction } from './alert-retrigger-rule-evaluate.action.js';
import { MATCH_MODES, MAX_RETRIGGER_RULES, retriggerRuleSchemas, TIMEOUT_MINUTES } from './alert-retrigger-rules.schemas.js';

const writable = {
  name: z.string().trim().min(1).max(255),
  match_mode: z.enum(MATCH_MODES),
  timeout_minutes: z.literal(TIMEOUT_MINUTES).nullable(),
  position: z.number().int().min(0).max(MAX_POSITION),
  conditions: conditionsSchema(RETRIGGER_VOCABULARY),
};

interface WrittenCondition {
  kind: string;
  record_ids: string[];
}

/** Urgency conditions name the team's own urgencies. */
async function urgencyIssues(attributes: Row, ctx: HookContext<OnCallResourceDeps>): Promise<ValidationIssue[]> {
  const conditions = (attributes.conditions as WrittenCondition[] | undefined) ?? [];
  return unknownUrgencies(
    ctx,
    conditions.map((c) => ({ field: 'record_ids', ids: c.kind === 'urgency' ? c.record_ids : [] })),
  );
}

/**
 * Alert re-trigger rules (docs/on-call.md): how long after acknowledgment an alert is
 * re-triggered. A team's rules are tried in ascending `position`; the first whose
 * conditions the alert meets (all or any, `match_mode`) decides its `timeout_minutes`,
 * null meaning never. Conditions are child rows: a PUT's `conditions` is the whole set,
 * and an unchanged condition keeps its id. `POST .../evaluate` tries the rules on an alert.
 */
export const alertRetriggerRules = defineResource<OnCallResourceDeps>({
  type: 'alert_retrigger_rules',
  path: '/v1/alert_retrigger_rules',
  table: 'alert_retrigger_rules',
  event: 'alert_retrigger_rule',
  permission: { scope: 'oc.alerts', side: 'oc' },
  summary: { singular: 'alert re-trigger rule', plural: 'alert re-trigger rules' },
  create: z.strictObject(writable).partial().required({ name: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['name', 'match_mode', 'timeout_minutes', 'position', 'conditions'],
  attributeSchemas: retriggerRuleSchemas,
  children: {
    conditions: {
      table: 'alert_retrigger_rule_conditions',
      key: 'alert_retrigger_rule_id',
      mode: 'replace',
      columns: ['kind', 'operator', 'record_ids', 'values', 'property_field_name'],
      jsonColumns: ['record_ids', 'values'],
      // property_field_name is a string, never null (docs/on-call.md): a condition without one leaves it out.
      present: ({ id, kind, operator, record_ids, values, property_field_name }) => ({
        id: String(id),
        kind,
        operator,
        record_ids,
        values,
        ...(property_field_name == null ? {} : { property_field_name }),
      }),
    },
  },
  sorts: ['name', 'position', 'created_at', 'updated_at'],
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  // A rule created without a position is tried after the team's others.
  position: { max: MAX_POSITION },
  // Evaluation reads every rule of the team, so their number is bounded.
  limit: { max: MAX_RETRIGGER_RULES, detail: 'A team has at most {max} alert re-trigger rules.' },
  updateMethods: ['put'],
  deleteAnswer: 'empty',
  actions: [alertRetriggerRuleEvaluateAction],
  hooks: {
    defaults(attributes) {
      return {
        match_mode: 'match-all-rules',
        timeout_minutes: null,
        ...attributes,
      };
    },
    validate: urgencyIssues,
  },
});
