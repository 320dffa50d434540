import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const snooze = (attributes: Record<string, unknown>) => ({ data: { type: 'alerts', attributes } });

async function anAlert(ctx: ConformanceContext, attributes: Record<string, unknown> = {}): Promise<string> {
  const body = { data: { type: 'alerts', attributes: { summary: `Disk full ${randomUUID().slice(0, 8)}`, ...attributes } } };
  const res = await ctx.call('POST', '/v1/alerts', { body });
  if (res.status !== 201) throw new Error(`fixture: POST /v1/alerts answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** Snoozing an alert (docs/on-call.md, "Snooze"): deferred for delay_minutes, then triggered again. */
export const alertSnoozeOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/alerts/{id}/snooze',
    request: async (ctx) => ({ params: { id: await anAlert(ctx) }, body: snooze({ delay_minutes: 30 }) }),
    status: 200,
    schema: { reference: 'snoozeAlert', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/alerts/{id}/snooze',
    variant: 'an open alert',
    request: async (ctx) => ({ params: { id: await anAlert(ctx, { status: 'open' }) }, body: snooze({ delay_minutes: 30 }) }),
    status: 400,
    schema: { reference: 'snoozeAlert', status: 400 },
  },
  {
    method: 'POST',
    path: '/v1/alerts/{id}/snooze',
    variant: 'delay_minutes out of range',
    request: async (ctx) => ({ params: { id: await anAlert(ctx) }, body: snooze({ delay_minutes: 0 }) }),
    status: 422,
    schema: { reference: 'snoozeAlert', status: 422 },
  },
  ...unknownIdRows('/v1/alerts/{id}/snooze', [['POST', 'snoozeAlert', snooze({ delay_minutes: 30 })]]),
];
