import { z } from 'zod';
import { BadRequestError, NotFoundError, ValidationError } from '@firewatch/errors';
import { ref } from '@firewatch/openapi';
import { defineAction } from '@firewatch/resource-kit';
import type { AlertPagingDeps } from '../alerts-in/alerts-in.deps.js';

const body = z
  .object({
    data: z.strictObject({
      type: z.literal('alerts'),
      id: z.string().optional(),
      attributes: z
        .strictObject({
          escalation_policy_id: z.string().optional(),
          escalation_policy_level: z.number().int().min(1).optional(),
        })
        .optional(),
    }),
  })
  .optional();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `POST /v1/alerts/{id}/escalate` (the reference's escalateAlert): pages a level now — the
 * next of the alert's policy, or `escalation_policy_level`, or level 1 (unless a level is
 * given) of another policy named by `escalation_policy_id`. A triggered alert's paging goes
 * on from there; an acknowledged or resolved one is paged once. The timeline records who
 * escalated (docs/paging.md). A group's member does not page (its leader does): 404, as the
 * reference; a malformed policy id is a 400, a level past the path a 422.
 */
export const escalateAlertAction = defineAction<{ paging: AlertPagingDeps }, z.infer<typeof body>>({
  name: 'escalate',
  on: 'item',
  method: 'post',
  capabilities: ['update'],
  body,
  summary: 'Escalate an alert',
  response: { schema: ref('alerts_response'), description: 'the alert, its next (or named) level paged' },
  async run({ record, resource, principal, deps, tx, body: input }) {
    const alert = record!;
    if (alert.group_leader_alert_id) throw new NotFoundError('Cannot escalate a grouped member alert: its group leader pages.');
    const attributes = input?.data.attributes ?? {};
    const policyId = attributes.escalation_policy_id;
    if (policyId !== undefined && !UUID.test(policyId))
      throw new BadRequestError('escalation_policy_id is malformed: it must be an escalation policy id (a UUID).', {
        code: 'invalid_parameter',
      });
    const refused = await deps.paging.escalate(
      tx,
      alert,
      { policyId: policyId?.toLowerCase(), level: attributes.escalation_policy_level },
      new Date(),
      { source: 'api', user_id: principal.user_id },
    );
    if (refused) throw new ValidationError([{ ...refused, code: 'invalid' }]);
    const [row] = await resource.findWhere({ id: alert.id });
    return { document: { data: resource.serialize(row ?? alert) } };
  },
});
