import { z } from 'zod';
import { BadRequestError } from '@firewatch/errors';
import { ref } from '@firewatch/openapi';
import { defineAction } from '@firewatch/resource-kit';
import type { AlertsInDeps } from './alerts-in.deps.js';

/** The reference's bounds of `delay_minutes`: a minute to a week. */
const MAX_DELAY_MINUTES = 10_080;

const body = z.object({
  data: z.strictObject({
    type: z.literal('alerts'),
    id: z.string().optional(),
    attributes: z.strictObject({ delay_minutes: z.number().int().min(1).max(MAX_DELAY_MINUTES) }),
  }),
});

/**
 * `POST /v1/alerts/{id}/snooze`: the alert is deferred for `delay_minutes` and then
 * triggered again by the re-trigger job (docs/on-call.md, "Snooze"), as a re-trigger
 * timer is: the snooze's time replaces any timer an acknowledgment set, and snoozing a
 * deferred alert again moves its time. An open or resolved alert is a 400, as for
 * acknowledge; the timeline records the snooze and, later, its end.
 */
export const snoozeAlertAction = defineAction<{ alertsIn: AlertsInDeps }, z.infer<typeof body>>({
  name: 'snooze',
  on: 'item',
  method: 'post',
  capabilities: ['update'],
  body,
  summary: 'Snooze an alert',
  response: { schema: ref('alerts_response'), description: 'the alert, deferred until its snooze ends' },
  async run({ record, resource, principal, deps, tx, body: input }) {
    const alert = record!;
    if (alert.status === 'open' || alert.status === 'resolved')
      throw new BadRequestError(`Cannot snooze ${String(alert.status)} alert.`, { code: 'invalid_transition' });
    const minutes = input.data.attributes.delay_minutes;
    const until = new Date(Date.now() + minutes * 60_000);
    const data = await resource.update(alert, { status: 'deferred' }, 'snoozed');
    await deps.alertsIn.setRetrigger(tx, String(alert.id), { at: until, rule_id: null });
    await deps.alertsIn.recordEvent(tx, {
      team_id: principal.team_id,
      alert_id: String(alert.id),
      kind: 'status_update',
      action: 'snoozed',
      source: 'api',
      user_id: principal.user_id,
      details: `Snoozed for ${minutes} minutes, until ${until.toISOString()}.`,
    });
    return { document: { data } };
  },
});
