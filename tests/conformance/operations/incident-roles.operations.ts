import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const role = (attributes: Record<string, unknown>) => ({ data: { type: 'incident_roles', attributes } });

/** A fresh incident role; its id. */
async function incidentRole(ctx: ConformanceContext): Promise<string> {
  const res = await ctx.call('POST', '/v1/incident_roles', { body: role({ name: `Role ${randomUUID().slice(0, 8)}` }) });
  if (res.status !== 201) throw new Error(`fixture: incident role answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** Incident roles (docs/decisions.md, Resources). */
export const incidentRoleOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/incident_roles',
    variant: 'every attribute set',
    request: () => ({
      body: role({
        name: `Commander ${randomUUID().slice(0, 8)}`,
        summary: 'Leads',
        description: 'Owns the response',
        position: 1,
        optional: false,
        enabled: true,
        allow_multi_user_assignment: true,
      }),
    }),
    status: 201,
    schema: { reference: 'createIncidentRole', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/incident_roles',
    variant: 'only the required name',
    request: () => ({ body: role({ name: `Scribe ${randomUUID().slice(0, 8)}` }) }),
    status: 201,
    schema: { reference: 'createIncidentRole', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/incident_roles',
    variant: 'name missing',
    request: () => ({ body: role({ summary: 'x' }) }),
    status: 422,
    schema: { reference: 'createIncidentRole', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/incident_roles',
    variant: 'no credential',
    request: () => ({ body: role({ name: 'Nobody' }), token: null }),
    status: 401,
    schema: { reference: 'createIncidentRole', status: 401 },
  },
  { method: 'GET', path: '/v1/incident_roles', status: 200, schema: { reference: 'listIncidentRoles', status: 200 } },
  {
    method: 'GET',
    path: '/v1/incident_roles',
    variant: 'filters, sort and a page',
    request: () => ({ query: 'filter[search]=o&filter[enabled]=true&filter[name][not_eq]=x&sort=-created_at&page[size]=1' }),
    status: 200,
    schema: { reference: 'listIncidentRoles', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/incident_roles/{id}',
    request: async (ctx) => ({ params: { id: await incidentRole(ctx) } }),
    status: 200,
    schema: { reference: 'getIncidentRole', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/incident_roles/{id}',
    request: async (ctx) => ({ params: { id: await incidentRole(ctx) }, body: role({ enabled: false, summary: null }) }),
    status: 200,
    schema: { reference: 'updateIncidentRole', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/incident_roles/{id}',
    request: async (ctx) => ({ params: { id: await incidentRole(ctx) } }),
    status: 200,
    schema: { reference: 'deleteIncidentRole', status: 200 },
  },
  ...unknownIdRows('/v1/incident_roles/{id}', [
    ['GET', 'getIncidentRole'],
    ['PUT', 'updateIncidentRole', role({ name: 'x' })],
    ['DELETE', 'deleteIncidentRole'],
  ]),
];
