import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineAction } from '@firewatch/resource-kit';
import { alertInputSchema, evaluationBudget, type AlertInput, type ConditionExplanation } from '../matching/index.js';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { withinBudget } from './alerts.shared.js';
import type { StoredGroupCondition } from './alert-groups.conditions.js';
import { judgeGroup, rankGroups, type GroupRouting, type RankedGroup } from './alert-group-match.js';
import { evaluationDocument } from './alert-groups.schemas.js';

const ids = z.array(z.uuid().transform((id) => id.toLowerCase())).max(100);

const body = z.strictObject({
  data: z.strictObject({
    type: z.literal('alert_group_evaluations'),
    attributes: z.strictObject({
      alert: alertInputSchema,
      /** Escalation policies and functionalities the alert is routed to (targets of those types). */
      escalation_policy_ids: ids.optional(),
      functionality_ids: ids.optional(),
      /** Alerts open in groups now, for matches_existing_alert: each in the group it names. */
      existing_alerts: z
        .array(alertInputSchema.extend({ alert_group_id: z.uuid().transform((id) => id.toLowerCase()) }))
        .max(100)
        .optional(),
    }),
  }),
});

/** An explanation in the group's own words (property_field_type, ...) rather than the engine's kinds. */
function explained(conditions: StoredGroupCondition[], e: ConditionExplanation) {
  const c = conditions[e.index];
  return {
    id: e.id,
    index: e.index,
    property_field_type: c.property_field_type,
    property_field_name: c.property_field_name,
    property_field_condition_type: c.property_field_condition_type,
    conditionable_id: c.conditionable_id,
    matched: e.matched,
    reason: e.reason,
  };
}

/**
 * `POST /v1/alert_groups/evaluate`: the group an alert would join, and why. Groups are
 * tried oldest first among those whose targets include the alert's (or that have none);
 * the first whose conditions the alert meets (all or any, `condition_type`) takes it.
 * Every group is judged, so the answer explains them all. Nothing is stored: an
 * operator tests groups before alerts arrive.
 */
export const alertGroupEvaluateAction = defineAction<OnCallResourceDeps, z.infer<typeof body>>({
  name: 'evaluate',
  on: 'collection',
  method: 'post',
  capabilities: ['read'],
  body,
  summary: 'Which alert group an alert would join, and why',
  response: {
    status: 200,
    schema: evaluationDocument,
    description: "The group the alert would join (or none), with each group's verdict and each condition's",
  },
  async run({
    body: {
      data: { attributes: input },
    },
    resource,
  }) {
    const alert: AlertInput = input.alert;
    const existing = input.existing_alerts ?? [];
    const groups = rankGroups(await resource.findWhere({}));
    const routing: GroupRouting = {
      service_ids: (alert.service_ids ?? []).map((id) => id.toLowerCase()),
      group_ids: (alert.group_ids ?? []).map((id) => id.toLowerCase()),
      escalation_policy_ids: input.escalation_policy_ids ?? [],
      functionality_ids: input.functionality_ids ?? [],
    };
    // One budget for the whole evaluation: 100 groups of 50 conditions over a large payload would otherwise hold the process for seconds.
    const budget = evaluationBudget();
    let winner: RankedGroup | undefined;
    const judge = (g: RankedGroup) => {
      const verdict = judgeGroup(
        g,
        alert,
        routing,
        existing.filter((a) => a.alert_group_id === g.id),
        budget,
      );
      if (verdict.matched && !winner) winner = g;
      return {
        alert_group_id: g.id,
        name: g.row.name,
        condition_type: g.row.condition_type,
        targeted: verdict.targeted,
        matched: verdict.matched,
        conditions: verdict.conditions.map((e) => explained(g.stored, e)),
      };
    };
    const verdicts = withinBudget(() => groups.map(judge));
    const attributes = {
      alert_group_id: winner?.id ?? null,
      alert_group: winner ? { id: winner.id, name: winner.row.name, slug: winner.row.slug, time_window: winner.row.time_window } : null,
      groups: verdicts,
    };
    return { status: 200, document: { data: { id: randomUUID(), type: 'alert_group_evaluations', attributes } } };
  },
});
