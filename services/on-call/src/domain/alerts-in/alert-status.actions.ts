import { z } from 'zod';
import { BadRequestError } from '@firewatch/errors';
import { ref } from '@firewatch/openapi';
import { defineAction } from '@firewatch/resource-kit';
import type { AlertsInDeps } from './alerts-in.deps.js';
import { retriggerTimer } from './alert-retrigger.js';

const ackBody = z
  .object({ data: z.strictObject({ type: z.literal('alerts'), id: z.string().optional(), attributes: z.strictObject({}).optional() }) })
  .optional();
const resolveBody = z
  .object({
    data: z.strictObject({
      type: z.literal('alerts'),
      id: z.string().optional(),
      attributes: z
        .strictObject({
          resolution_message: z.string().max(10_000).nullable().optional(),
          resolve_related_incidents: z.boolean().nullable().optional(),
        })
        .optional(),
    }),
  })
  .optional();

const response = (description: string) => ({ schema: ref('alerts_response'), description });

/**
 * `POST /v1/alerts/{id}/acknowledge`: someone is on it. From triggered or deferred; an
 * acknowledged alert answers as it is; an open alert (one that pages no one) and a
 * resolved one are a 400, as the reference's "cannot acknowledge open alert". The team's
 * re-trigger rules set when it is triggered again (docs/on-call.md, "Re-trigger"), replacing
 * the timer of an earlier acknowledgment.
 */
export const acknowledgeAlertAction = acknowledgeActionFrom('api');

/** The acknowledge action recording `source` on its event: `api`, or an action link's channel (docs/paging.md). */
export function acknowledgeActionFrom(source: string) {
  return defineAction<{ alertsIn: AlertsInDeps }, z.infer<typeof ackBody>>({
    name: 'acknowledge',
    on: 'item',
    method: 'post',
    capabilities: ['update'],
    body: ackBody,
    summary: 'Acknowledge an alert',
    response: response('the alert, acknowledged'),
    async run({ record, resource, principal, deps, tx }) {
      const alert = record!;
      if (alert.status === 'acknowledged') return { document: { data: resource.serialize(alert) } };
      if (alert.status === 'open' || alert.status === 'resolved')
        throw new BadRequestError(`Cannot acknowledge ${String(alert.status)} alert.`, { code: 'invalid_transition' });
      const data = await resource.update(alert, { status: 'acknowledged' }, 'acknowledged');
      const rules = await deps.alertsIn.retriggerRules(tx, principal.team_id);
      await deps.alertsIn.setRetrigger(tx, String(alert.id), retriggerTimer(rules, alert, new Date()));
      await deps.alertsIn.recordEvent(tx, {
        team_id: principal.team_id,
        alert_id: String(alert.id),
        kind: 'status_update',
        action: 'acknowledged',
        source,
        user_id: principal.user_id,
        details: null,
      });
      return { document: { data } };
    },
  });
}

/**
 * `POST /v1/alerts/{id}/resolve`: from any other status; `resolution_message` is the
 * event's details (the why). A resolved alert answers as it is. Incidents are another
 * service's: `resolve_related_incidents` is accepted and changes nothing yet. Its
 * re-trigger timer, if any, is cleared.
 */
export const resolveAlertAction = resolveActionFrom('api');

/** The resolve action recording `source` on its event, as {@link acknowledgeActionFrom}. */
export function resolveActionFrom(source: string) {
  return defineAction<{ alertsIn: AlertsInDeps }, z.infer<typeof resolveBody>>({
    name: 'resolve',
    on: 'item',
    method: 'post',
    capabilities: ['update'],
    body: resolveBody,
    summary: 'Resolve an alert',
    response: response('the alert, resolved'),
    async run({ record, resource, principal, deps, tx, body }) {
      const alert = record!;
      if (alert.status === 'resolved') return { document: { data: resource.serialize(alert) } };
      const data = await resource.update(alert, { status: 'resolved', ended_at: new Date() }, 'resolved');
      await deps.alertsIn.setRetrigger(tx, String(alert.id), null);
      await deps.alertsIn.recordEvent(tx, {
        team_id: principal.team_id,
        alert_id: String(alert.id),
        kind: 'status_update',
        action: 'resolved',
        source,
        user_id: principal.user_id,
        details: body?.data.attributes?.resolution_message ?? null,
      });
      return { document: { data } };
    },
  });
}
