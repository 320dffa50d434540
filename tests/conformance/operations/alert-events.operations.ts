import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const note = (attributes: Record<string, unknown>) => ({ data: { type: 'alert_events', attributes } });

async function anAlert(ctx: ConformanceContext): Promise<string> {
  const res = await ctx.call('POST', '/v1/alerts', {
    body: { data: { type: 'alerts', attributes: { summary: `Disk full ${randomUUID()}` } } },
  });
  if (res.status !== 201) throw new Error(`fixture: POST /v1/alerts answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

async function aNote(ctx: ConformanceContext): Promise<string> {
  const alertId = await anAlert(ctx);
  const res = await ctx.call('POST', `/v1/alerts/${alertId}/events`, { body: note({ kind: 'note', details: 'Looking at it.' }) });
  if (res.status !== 201) throw new Error(`fixture: a note answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** The first (created) event of a fresh alert: not a note. */
async function aCreatedEvent(ctx: ConformanceContext): Promise<string> {
  const res = await ctx.call('GET', `/v1/alerts/${await anAlert(ctx)}/events`);
  return res.body.data[0].id as string;
}

/** Alert notes and the alert events feed (docs/on-call.md, "Timeline and notes"). */
export const alertEventOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/alerts/{alert_id}/events',
    request: async (ctx) => ({ params: { alert_id: await anAlert(ctx) }, body: note({ kind: 'note', details: 'Rebooting db-1.' }) }),
    status: 201,
    schema: { reference: 'createAlertEvent', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/alerts/{alert_id}/events',
    variant: 'a kind other than note',
    request: async (ctx) => ({ params: { alert_id: await anAlert(ctx) }, body: note({ kind: 'informational', details: 'x' }) }),
    status: 422,
    schema: { reference: 'createAlertEvent', status: 422 },
  },
  {
    method: 'PATCH',
    path: '/v1/alert_events/{id}',
    request: async (ctx) => ({ params: { id: await aNote(ctx) }, body: note({ details: 'Rebooted; watching.' }) }),
    status: 200,
    schema: { reference: 'updateAlertEvent', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/alert_events/{id}',
    variant: 'not a note (the audit trail)',
    request: async (ctx) => ({ params: { id: await aCreatedEvent(ctx) }, body: note({ details: 'rewritten' }) }),
    status: 422,
    schema: { reference: 'updateAlertEvent', status: 422 },
  },
  {
    method: 'DELETE',
    path: '/v1/alert_events/{id}',
    request: async (ctx) => ({ params: { id: await aNote(ctx) } }),
    status: 200,
    schema: { spec: 'empty', cite: "the reference's deleteAlertEvent: 200, no body" },
  },
  {
    method: 'DELETE',
    path: '/v1/alert_events/{id}',
    variant: 'not a note (the audit trail)',
    request: async (ctx) => ({ params: { id: await aCreatedEvent(ctx) } }),
    status: 422,
    schema: { spec: 'errors', cite: 'docs/on-call.md, "Timeline and notes": only notes may be deleted, another event is a 422' },
  },
  ...unknownIdRows('/v1/alert_events/{id}', [['DELETE', 'deleteAlertEvent']]),
  {
    method: 'PATCH',
    path: '/v1/alert_events/{id}',
    variant: 'unknown id',
    request: (ctx) => ({ params: { id: ctx.unknownId }, body: note({ details: 'x' }) }),
    status: 404,
    schema: { spec: 'errors', cite: "the reference's updateAlertEvent lists no 404; an unknown id is one, as everywhere" },
  },
  {
    method: 'GET',
    path: '/v1/alert_events',
    variant: 'a page with a next one (page[size]=1), filtered',
    request: async (ctx) => {
      const alertId = await anAlert(ctx);
      await ctx.call('POST', `/v1/alerts/${alertId}/events`, { body: note({ kind: 'note', details: 'one' }) });
      return { query: `filter[alert_id]=${alertId}&sort=created_at&page[size]=1` };
    },
    status: 200,
    schema: { reference: 'listAlertEventsFeed', status: 200 },
  },
];
