import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const heartbeat = (attributes: Record<string, unknown>) => ({ data: { type: 'heartbeats', attributes } });
const unique = () => randomUUID().slice(0, 8);

const everyAttribute = () => ({
  name: `Nightly backup ${unique()}`,
  description: 'pg_dump at 02:00',
  alert_summary: 'The nightly backup did not report',
  alert_description: 'Look at the backup host',
  alert_urgency_id: null,
  interval: 26,
  interval_unit: 'hours',
  notification_target_type: 'Service',
  notification_target_id: randomUUID(),
  owner_group_ids: [],
  enabled: true,
});

async function aHeartbeat(ctx: ConformanceContext, ping = false): Promise<string> {
  const res = await ctx.call('POST', '/v1/heartbeats', { body: heartbeat(everyAttribute()) });
  if (res.status !== 201) throw new Error(`fixture: POST /v1/heartbeats answered ${res.status}: ${JSON.stringify(res.body)}`);
  const id = res.body.data.id as string;
  if (ping) await ctx.call('POST', `/v1/heartbeats/${id}/ping`);
  return id;
}

/** Heartbeats (on-call, issue 23): CRUD and ping, each against the reference's operation. */
export const heartbeatOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/heartbeats',
    variant: 'every attribute set',
    request: () => ({ body: heartbeat(everyAttribute()) }),
    status: 201,
    schema: { reference: 'createHeartbeat', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/heartbeats',
    variant: 'interval_unit not one of minutes, hours, days',
    request: () => ({ body: heartbeat({ ...everyAttribute(), interval_unit: 'weeks' }) }),
    status: 422,
    schema: { reference: 'createHeartbeat', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/heartbeats',
    variant: 'no credential',
    request: () => ({ body: heartbeat(everyAttribute()), token: null }),
    status: 401,
    schema: { reference: 'createHeartbeat', status: 401 },
  },
  { method: 'GET', path: '/v1/heartbeats', status: 200, schema: { reference: 'listHeartbeats', status: 200 } },
  {
    method: 'GET',
    path: '/v1/heartbeats',
    variant: 'filters and a page',
    request: () => ({
      query: 'filter[search]=backup&filter[name]=x&filter[created_at][gte]=2026-01-01T00:00:00Z&page[number]=1&page[size]=2',
    }),
    status: 200,
    schema: { reference: 'listHeartbeats', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/heartbeats/{id}',
    variant: 'active (pinged)',
    request: async (ctx) => ({ params: { id: await aHeartbeat(ctx, true) } }),
    status: 200,
    schema: { reference: 'getHeartbeat', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/heartbeats/{id}',
    request: async (ctx) => ({ params: { id: await aHeartbeat(ctx, true) }, body: heartbeat({ interval: 30, interval_unit: 'minutes' }) }),
    status: 200,
    schema: { reference: 'updateHeartbeat', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/heartbeats/{id}',
    variant: 'interval of zero',
    request: async (ctx) => ({ params: { id: await aHeartbeat(ctx) }, body: heartbeat({ interval: 0 }) }),
    status: 422,
    schema: { reference: 'updateHeartbeat', status: 422 },
  },
  {
    method: 'DELETE',
    path: '/v1/heartbeats/{id}',
    request: async (ctx) => ({ params: { id: await aHeartbeat(ctx) } }),
    status: 200,
    schema: { reference: 'deleteHeartbeat', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/heartbeats/{heartbeat_id}/ping',
    request: async (ctx) => ({ params: { heartbeat_id: await aHeartbeat(ctx) } }),
    status: 204,
    schema: { spec: 'empty', cite: "the reference's pingHeartbeat: 204, no body" },
  },
  {
    method: 'POST',
    path: '/v1/heartbeats/{heartbeat_id}/ping',
    variant: 'unknown id',
    request: () => ({ params: { heartbeat_id: randomUUID() } }),
    status: 404,
    schema: { reference: 'pingHeartbeat', status: 404 },
  },
  {
    method: 'POST',
    path: '/v1/heartbeats/{id}/rotate_secret',
    request: async (ctx) => ({ params: { id: await aHeartbeat(ctx) } }),
    status: 200,
    schema: {
      component: 'heartbeat_response',
      cite: 'docs/on-call.md, "Heartbeats": rotate_secret answers the heartbeat, its new ping secret whole',
    },
  },
  ...unknownIdRows('/v1/heartbeats/{id}', [
    ['GET', 'getHeartbeat'],
    ['PUT', 'updateHeartbeat', heartbeat({ name: 'x' })],
    ['DELETE', 'deleteHeartbeat'],
  ]),
];
