import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;
const doc = (type: string, attributes?: Record<string, unknown>) => ({ data: { type, ...(attributes ? { attributes } : {}) } });
const incidentDoc = (attributes?: Record<string, unknown>) => doc('incidents', attributes);
const eventDoc = (attributes: Record<string, unknown>) => doc('incident_events', attributes);
const ratingDoc = (attributes: Record<string, unknown>) => doc('incident_event_services', attributes);
const unique = () => randomUUID().slice(0, 8);

async function created(ctx: ConformanceContext, path: string, body: unknown): Promise<string> {
  const res = await ctx.call('POST', path, { body });
  if (res.status !== 201) throw new Error(`fixture: POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** A fresh incident, optionally moved by a status action first; its id. */
async function incident(ctx: ConformanceContext, action?: string): Promise<string> {
  const id = await created(ctx, '/v1/incidents', incidentDoc({ title: `Outage ${unique()}` }));
  if (action) await ctx.call('PUT', `/v1/incidents/${id}/${action}`, { body: incidentDoc({}) });
  return id;
}

const event = async (ctx: ConformanceContext) => created(ctx, `/v1/incidents/${await incident(ctx)}/events`, eventDoc({ event: 'Paged' }));
const service = (ctx: ConformanceContext) => created(ctx, '/v1/services', doc('services', { name: `Rated ${unique()}` }));

/** A fresh incident event service; its id. */
async function rating(ctx: ConformanceContext): Promise<string> {
  return created(ctx, `/v1/events/${await event(ctx)}/services`, ratingDoc({ service_id: await service(ctx), status: 'operational' }));
}

/** The status actions: each moves a fresh incident from a status it may leave. */
const ACTIONS: [string, string, Record<string, unknown> | undefined, string?][] = [
  ['in_triage', 'triageIncident', undefined],
  ['mitigate', 'mitigateIncident', { mitigation_message: 'Rolled back' }],
  ['resolve', 'resolveIncident', { resolution_message: 'Fixed' }],
  ['cancel', 'cancelIncident', { cancellation_message: 'False alarm' }],
  ['restart', 'restartIncident', {}, 'resolve'],
];

/** Incidents, their timeline and the services rated on it (issue 9; docs/decisions.md, Resources). */
export const incidentOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/incidents',
    variant: 'every attribute set',
    request: async (ctx) => ({
      body: incidentDoc({
        title: `Checkout down ${unique()}`,
        summary: 'Payments fail',
        public_title: 'Degraded checkout',
        kind: 'normal',
        private: false,
        status: 'in_triage',
        service_ids: [await service(ctx)],
        environment_ids: [],
        functionality_ids: [],
        severity_id: (await ctx.call('GET', '/v1/severities/sev1')).body.data.id,
        incident_type_ids: [await created(ctx, '/v1/incident_types', doc('incident_types', { name: `Type ${unique()}` }))],
        labels: { platform: 'web' },
      }),
    }),
    status: 201,
    schema: { reference: 'createIncident', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/incidents',
    variant: 'no attributes: a generated title',
    request: () => ({ body: incidentDoc({}) }),
    status: 201,
    schema: { reference: 'createIncident', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/incidents',
    variant: 'an unknown kind',
    request: () => ({ body: incidentDoc({ title: 'x', kind: 'urgent' }) }),
    status: 422,
    schema: { reference: 'createIncident', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/incidents',
    variant: 'no credential',
    request: () => ({ body: incidentDoc({ title: 'Nobody' }), token: null }),
    status: 401,
    schema: { reference: 'createIncident', status: 401 },
  },
  { method: 'GET', path: '/v1/incidents', status: 200, schema: { reference: 'listIncidents', status: 200 } },
  {
    method: 'GET',
    path: '/v1/incidents',
    variant: 'filters, sort and a page',
    request: () => ({
      query:
        'filter[search]=o&filter[status][in]=started,in_triage&filter[kind]=normal&filter[created_at][gte]=2000-01-01T00:00:00Z&sort=-started_at&page[size]=1',
    }),
    status: 200,
    schema: { reference: 'listIncidents', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/incidents',
    variant: 'filters by slug',
    request: () => ({
      query:
        'filter[severity][in]=sev0,sev1&filter[types][not_eq]=outage&filter[services]=api&filter[environments][not_in]=staging&filter[functionalities][not_eq]=checkout',
    }),
    status: 200,
    schema: { reference: 'listIncidents', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/incidents/{id}',
    variant: 'include=services',
    request: async (ctx) => ({
      params: { id: await incident(ctx) },
      query: 'include=services,environments,functionalities,incident_types',
    }),
    status: 200,
    schema: { reference: 'getIncident', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/incidents/{id}',
    request: async (ctx) => ({ params: { id: await incident(ctx) }, body: incidentDoc({ summary: null, kind: 'test', labels: null }) }),
    status: 200,
    schema: { reference: 'updateIncident', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/incidents/{id}',
    request: async (ctx) => ({ params: { id: await incident(ctx) } }),
    status: 200,
    schema: { reference: 'deleteIncident', status: 200 },
  },
  ...ACTIONS.map(([action, reference, attributes, before]): ConformanceOperation => ({
    method: 'PUT',
    path: `/v1/incidents/{id}/${action}`,
    request: async (ctx) => ({ params: { id: await incident(ctx, before) }, body: incidentDoc(attributes) }),
    status: 200,
    schema: { reference, status: 200 },
  })),
  {
    method: 'PUT',
    path: '/v1/incidents/{id}/resolve',
    variant: 'a cancelled incident: no such transition',
    request: async (ctx) => ({ params: { id: await incident(ctx, 'cancel') }, body: incidentDoc({}) }),
    status: 422,
    schema: errorDocument,
  },
  ...unknownIdRows('/v1/incidents/{id}', [
    ['GET', 'getIncident'],
    ['PUT', 'updateIncident', incidentDoc({ title: 'x' })],
    ['DELETE', 'deleteIncident'],
  ]),
  ...ACTIONS.flatMap(([action, reference, attributes]) =>
    unknownIdRows(`/v1/incidents/{id}/${action}`, [['PUT', reference, incidentDoc(attributes)]]),
  ),

  {
    method: 'POST',
    path: '/v1/incidents/{incident_id}/events',
    request: async (ctx) => ({
      params: { incident_id: await incident(ctx) },
      body: eventDoc({ event: 'Status page updated', visibility: 'external' }),
    }),
    status: 201,
    schema: { reference: 'createIncidentEvent', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/incidents/{incident_id}/events',
    variant: 'event missing',
    request: async (ctx) => ({ params: { incident_id: await incident(ctx) }, body: eventDoc({ visibility: 'internal' }) }),
    status: 422,
    schema: { reference: 'createIncidentEvent', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/incidents/{incident_id}/events',
    variant: 'no credential',
    request: (ctx) => ({ params: { incident_id: ctx.unknownId }, body: eventDoc({ event: 'x' }), token: null }),
    status: 401,
    schema: { reference: 'createIncidentEvent', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/incidents/{incident_id}/events',
    request: async (ctx) => {
      const id = await incident(ctx);
      await created(ctx, `/v1/incidents/${id}/events`, eventDoc({ event: 'Paged' }));
      return { params: { incident_id: id }, query: 'page[size]=1' };
    },
    status: 200,
    schema: { reference: 'listIncidentEvents', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/incidents/{incident_id}/events',
    variant: 'unknown incident',
    request: (ctx) => ({ params: { incident_id: ctx.unknownId } }),
    status: 404,
    schema: errorDocument,
  },
  {
    method: 'GET',
    path: '/v1/events/{id}',
    request: async (ctx) => ({ params: { id: await event(ctx) } }),
    status: 200,
    schema: { reference: 'getIncidentEvents', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/events/{id}',
    request: async (ctx) => ({ params: { id: await event(ctx) }, body: eventDoc({ event: 'Paged the on-call', visibility: 'internal' }) }),
    status: 200,
    schema: { reference: 'updateIncidentEvent', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/events/{id}',
    request: async (ctx) => ({ params: { id: await event(ctx) } }),
    status: 200,
    schema: { reference: 'deleteIncidentEvent', status: 200 },
  },
  ...unknownIdRows('/v1/events/{id}', [
    ['GET', 'getIncidentEvents'],
    ['PUT', 'updateIncidentEvent', eventDoc({ event: 'x' })],
    ['DELETE', 'deleteIncidentEvent'],
  ]),

  {
    method: 'POST',
    path: '/v1/events/{incident_event_id}/services',
    request: async (ctx) => {
      const id = await event(ctx);
      return {
        params: { incident_event_id: id },
        body: ratingDoc({ incident_event_id: id, service_id: await service(ctx), status: 'partial_outage' }),
      };
    },
    status: 201,
    schema: { reference: 'createIncidentEventService', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/events/{incident_event_id}/services',
    variant: "the specification's attributes only (status defaults)",
    request: async (ctx) => {
      const id = await event(ctx);
      return { params: { incident_event_id: id }, body: ratingDoc({ incident_event_id: id, service_id: await service(ctx) }) };
    },
    status: 201,
    schema: { reference: 'createIncidentEventService', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/events/{incident_event_id}/services',
    variant: 'a service of no record',
    request: async (ctx) => ({
      params: { incident_event_id: await event(ctx) },
      body: ratingDoc({ service_id: ctx.unknownId, status: 'operational' }),
    }),
    status: 422,
    schema: { reference: 'createIncidentEventService', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/events/{incident_event_id}/services',
    variant: 'no credential',
    request: (ctx) => ({ params: { incident_event_id: ctx.unknownId }, body: ratingDoc({ status: 'operational' }), token: null }),
    status: 401,
    schema: { reference: 'createIncidentEventService', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/events/{incident_event_id}/services',
    request: async (ctx) => {
      const id = await event(ctx);
      await created(ctx, `/v1/events/${id}/services`, ratingDoc({ service_id: await service(ctx), status: 'major_outage' }));
      return { params: { incident_event_id: id } };
    },
    status: 200,
    schema: { reference: 'listIncidentEventServices', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/incident_event_services/{id}',
    request: async (ctx) => ({ params: { id: await rating(ctx) } }),
    status: 200,
    schema: { reference: 'getIncidentEventServices', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/incident_event_services/{id}',
    request: async (ctx) => ({ params: { id: await rating(ctx) }, body: ratingDoc({ status: 'major_outage' }) }),
    status: 200,
    schema: { reference: 'updateIncidentEventService', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/incident_event_services/{id}',
    request: async (ctx) => ({ params: { id: await rating(ctx) } }),
    status: 200,
    schema: { reference: 'deleteIncidentEventService', status: 200 },
  },
  ...unknownIdRows('/v1/incident_event_services/{id}', [
    ['GET', 'getIncidentEventServices'],
    ['PUT', 'updateIncidentEventService', ratingDoc({ status: 'operational' })],
    ['DELETE', 'deleteIncidentEventService'],
  ]),
];
