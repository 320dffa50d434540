import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const source = (attributes: Record<string, unknown>) => ({ data: { type: 'alert_sources', attributes } });
const alert = (attributes: Record<string, unknown>) => ({ data: { type: 'alerts', attributes } });
const unique = () => randomUUID().slice(0, 8);

async function created(ctx: ConformanceContext, path: string, body: unknown): Promise<string> {
  const res = await ctx.call('POST', path, { body });
  if (res.status !== 201) throw new Error(`fixture: POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

const everySourceAttribute = () => ({
  name: `Prometheus ${unique()}`,
  source_type: 'generic_webhook',
  enabled: true,
  deduplicate_alerts_by_key: true,
  deduplication_key_kind: 'payload',
  deduplication_key_path: '$.id',
  deduplication_key_regexp: 'job-(\\d+)',
  owner_group_ids: [],
  alert_template_attributes: { title: '{{ $.check }} on {{ $.host }}', description: '$.details', external_url: null },
  sourceable_attributes: { auto_resolve: true, resolve_state: 'ok', field_mappings_attributes: [{ field: 'state', json_path: '$.state' }] },
});

const alertSource = (ctx: ConformanceContext) => created(ctx, '/v1/alert_sources', source(everySourceAttribute()));
const anAlert = (ctx: ConformanceContext, attributes: Record<string, unknown> = {}) =>
  created(ctx, '/v1/alerts', alert({ summary: `Disk full ${unique()}`, ...attributes }));

/** The first event of a fresh alert's timeline; its id. */
async function alertEvent(ctx: ConformanceContext): Promise<string> {
  const id = await anAlert(ctx);
  const res = await ctx.call('GET', `/v1/alerts/${id}/events`);
  return res.body.data[0].id as string;
}

/** Alert sources, alerts and their events (docs/on-call.md, "Alert sources", "Alerts"). */
export const alertsInOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/alert_sources',
    variant: 'every attribute set',
    // owner_group_ids name teams (/v1/teams) of the tenant.
    request: async (ctx) => ({ body: source({ ...everySourceAttribute(), owner_group_ids: [await ctx.create.team()] }) }),
    status: 201,
    schema: { reference: 'createAlertsSource', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/alert_sources',
    variant: 'an owner group that is no team of ours',
    request: () => ({ body: source({ name: `Lost ${unique()}`, owner_group_ids: ['platform'] }) }),
    status: 422,
    schema: { reference: 'createAlertsSource', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/alert_sources',
    variant: 'name only',
    request: () => ({ body: source({ name: `Plain ${unique()}` }) }),
    status: 201,
    schema: { reference: 'createAlertsSource', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/alert_sources',
    variant: 'deduplication without its path',
    request: () => ({ body: source({ name: 'x', deduplicate_alerts_by_key: true }) }),
    status: 422,
    schema: { reference: 'createAlertsSource', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/alert_sources',
    variant: 'no credential',
    request: () => ({ body: source({ name: 'x' }), token: null }),
    status: 401,
    schema: { reference: 'createAlertsSource', status: 401 },
  },
  { method: 'GET', path: '/v1/alert_sources', status: 200, schema: { reference: 'listAlertsSources', status: 200 } },
  {
    method: 'GET',
    path: '/v1/alert_sources',
    variant: 'filters, sort and a page',
    request: () => ({
      query: 'filter[search]=prom&filter[source_types]=generic_webhook&filter[enabled]=true&sort=-created_at&page[size]=1',
    }),
    status: 200,
    schema: { reference: 'listAlertsSources', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/alert_sources/{id}',
    request: async (ctx) => ({ params: { id: await alertSource(ctx) } }),
    status: 200,
    schema: { reference: 'getAlertsSource', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/alert_sources/{id}',
    request: async (ctx) => ({ params: { id: await alertSource(ctx) }, body: source({ enabled: false, alert_template_attributes: null }) }),
    status: 200,
    schema: { reference: 'updateAlertsSource', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/alert_sources/{id}',
    request: async (ctx) => ({ params: { id: await alertSource(ctx) } }),
    status: 200,
    schema: { reference: 'deleteAlertsSource', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/alert_sources/{id}/rotate_secret',
    request: async (ctx) => ({ params: { id: await alertSource(ctx) } }),
    status: 200,
    schema: {
      component: 'alerts_source_response',
      cite: 'docs/on-call.md, "Alert sources": rotate_secret answers the source, its new secret whole',
    },
  },
  ...unknownIdRows('/v1/alert_sources/{id}', [
    ['GET', 'getAlertsSource'],
    ['PUT', 'updateAlertsSource', source({ name: 'x' })],
    ['DELETE', 'deleteAlertsSource'],
  ]),

  {
    method: 'POST',
    path: '/v1/alerts',
    variant: 'every attribute set',
    request: () => ({
      body: alert({
        summary: `Disk full ${unique()}`,
        description: '/var at 98%',
        status: 'triggered',
        noise: 'not_noise',
        source: 'api',
        service_ids: [randomUUID()],
        group_ids: [],
        functionality_ids: [],
        environment_ids: [],
        started_at: '2026-11-25T08:00:00Z',
        ended_at: null,
        external_id: 'ext-1',
        external_url: 'https://monitor.example.com/1',
        notification_target_type: 'Service',
        notification_target_id: randomUUID(),
        labels: [
          { key: 'host', value: 'db-1' },
          { key: 'cpu', value: 4 },
        ],
        data: { host: 'db-1' },
        deduplication_key: `disk-${unique()}`,
      }),
    }),
    status: 201,
    schema: { reference: 'createAlert', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/alerts',
    variant: 'deduplicated into an unresolved alert with the same key: 200',
    request: async (ctx) => {
      const key = `dedup-${unique()}`;
      await anAlert(ctx, { deduplication_key: key });
      return { body: alert({ summary: 'again', deduplication_key: key }) };
    },
    status: 200,
    schema: { component: 'alert_response', cite: 'docs/on-call.md, "Deduplication": a deduplicated POST answers the existing alert' },
  },
  {
    method: 'POST',
    path: '/v1/alerts',
    variant: "joins an alert group's leader: group_leader_alert_id set",
    request: async (ctx) => {
      // A group that only alerts of this row's prefix meet, so that the others' answers stay as they are.
      const prefix = `Grouped ${unique()}`;
      const conditions = [
        {
          property_field_type: 'attribute',
          property_field_name: 'summary',
          property_field_condition_type: 'starts_with',
          property_field_value: prefix,
        },
        { property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'matches_existing_alert' },
      ];
      await created(ctx, '/v1/alert_groups', { data: { type: 'alert_groups', attributes: { name: prefix, time_window: 10, conditions } } });
      await anAlert(ctx, { summary: prefix });
      return { body: alert({ summary: prefix }) };
    },
    status: 201,
    schema: { reference: 'createAlert', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/alerts',
    variant: 'summary missing',
    request: () => ({ body: alert({ description: 'x' }) }),
    status: 422,
    schema: { reference: 'createAlert', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/alerts',
    variant: 'no credential',
    request: () => ({ body: alert({ summary: 'x' }), token: null }),
    status: 401,
    schema: { reference: 'createAlert', status: 401 },
  },
  { method: 'GET', path: '/v1/alerts', status: 200, schema: { reference: 'listAlerts', status: 200 } },
  {
    method: 'GET',
    path: '/v1/alerts',
    variant: 'filters and a page',
    request: () => ({
      query: 'filter[status][in]=triggered,acknowledged&filter[source]=api&filter[created_at][gte]=2026-01-01T00:00:00Z&page[size]=2',
    }),
    status: 200,
    schema: { reference: 'listAlerts', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/alerts/{id}',
    request: async (ctx) => ({ params: { id: await anAlert(ctx) } }),
    status: 200,
    schema: { reference: 'getAlert', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/alerts/{id}',
    request: async (ctx) => ({ params: { id: await anAlert(ctx) }, body: alert({ description: 'changed', noise: 'noise', labels: [] }) }),
    status: 200,
    schema: { reference: 'updateAlert', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/alerts/{id}',
    variant: 'status is not writable',
    request: async (ctx) => ({ params: { id: await anAlert(ctx) }, body: alert({ status: 'resolved' }) }),
    status: 422,
    schema: { reference: 'updateAlert', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/alerts/{id}/acknowledge',
    request: async (ctx) => ({ params: { id: await anAlert(ctx) } }),
    status: 200,
    schema: { reference: 'acknowledgeAlert', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/alerts/{id}/acknowledge',
    variant: 'an open alert',
    request: async (ctx) => ({ params: { id: await anAlert(ctx, { status: 'open' }) } }),
    status: 400,
    schema: { reference: 'acknowledgeAlert', status: 400 },
  },
  {
    method: 'POST',
    path: '/v1/alerts/{id}/resolve',
    request: async (ctx) => ({
      params: { id: await anAlert(ctx) },
      body: { data: { type: 'alerts', attributes: { resolution_message: 'fixed', resolve_related_incidents: false } } },
    }),
    status: 200,
    schema: { reference: 'resolveAlert', status: 200 },
  },
  ...unknownIdRows('/v1/alerts/{id}', [['GET', 'getAlert']]),
  ...unknownIdRows('/v1/alerts/{id}/acknowledge', [['POST', 'acknowledgeAlert']]),
  ...unknownIdRows('/v1/alerts/{id}/resolve', [['POST', 'resolveAlert']]),

  {
    method: 'GET',
    path: '/v1/alerts/{alert_id}/events',
    request: async (ctx) => ({ params: { alert_id: await anAlert(ctx) }, query: 'filter[kind]=informational' }),
    status: 200,
    schema: { reference: 'listAlertEvents', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/alert_events/{id}',
    request: async (ctx) => ({ params: { id: await alertEvent(ctx) } }),
    status: 200,
    schema: { reference: 'getAlertEvent', status: 200 },
  },
  ...unknownIdRows('/v1/alert_events/{id}', [['GET', 'getAlertEvent']]),
];
