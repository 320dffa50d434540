import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, entityTagRows, unknownIdRows } from '../conformance-operation.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;
const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
const unique = () => randomUUID().slice(0, 8);

async function created(ctx: ConformanceContext, path: string, body: unknown): Promise<string> {
  const res = await ctx.call('POST', path, { body });
  if (res.status !== 201) throw new Error(`fixture: POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** The rows one of the two families shares with the other: CRUD at the reference's paths, 404s and entity tags. */
function classificationRows(
  family: { path: string; type: string; op: (verb: string) => string },
  every: Record<string, unknown>,
  invalid: Record<string, unknown>,
  listQuery: string,
): ConformanceOperation[] {
  const { path, type, op } = family;
  const item = `${path}/{id}`;
  const fresh = (ctx: ConformanceContext) => created(ctx, path, doc(type, { name: `Fresh ${unique()}` }));
  return [
    {
      method: 'POST',
      path,
      variant: 'every attribute set',
      request: () => ({ body: doc(type, { ...every, name: `Every ${unique()}` }) }),
      status: 201,
      schema: { reference: op('create'), status: 201 },
    },
    {
      method: 'POST',
      path,
      variant: 'only the required name: nulls and empty lists',
      request: () => ({ body: doc(type, { name: `Plain ${unique()}` }) }),
      status: 201,
      schema: { reference: op('create'), status: 201 },
    },
    {
      method: 'POST',
      path,
      variant: 'an invalid attribute',
      request: () => ({ body: doc(type, { name: `Bad ${unique()}`, ...invalid }) }),
      status: 422,
      schema: { reference: op('create'), status: 422 },
    },
    {
      method: 'POST',
      path,
      variant: 'no credential',
      request: () => ({ body: doc(type, { name: 'Nobody' }), token: null }),
      status: 401,
      schema: { reference: op('create'), status: 401 },
    },
    {
      method: 'POST',
      path,
      variant: 'a name taken',
      request: async (ctx) => {
        const name = `Taken ${unique()}`;
        await created(ctx, path, doc(type, { name }));
        return { body: doc(type, { name }) };
      },
      status: 409,
      schema: errorDocument,
    },
    { method: 'GET', path, status: 200, schema: { reference: op('list'), status: 200 } },
    {
      method: 'GET',
      path,
      variant: 'filters, sort and the second page',
      request: () => ({ query: `${listQuery}&sort=-position,name&page[size]=1&page[number]=2` }),
      status: 200,
      schema: { reference: op('list'), status: 200 },
    },
    {
      method: 'GET',
      path,
      variant: 'an unknown filter',
      request: () => ({ query: 'filter[nope]=x' }),
      status: 400,
      schema: errorDocument,
    },
    {
      method: 'GET',
      path: item,
      request: async (ctx) => ({ params: { id: await fresh(ctx) } }),
      status: 200,
      schema: { reference: op('get'), status: 200 },
    },
    {
      method: 'PUT',
      path: item,
      request: async (ctx) => ({
        params: { id: await fresh(ctx) },
        body: doc(type, { description: 'Updated', chat_channels: null, position: 7 }),
      }),
      status: 200,
      schema: { reference: op('update'), status: 200 },
    },
    {
      method: 'PUT',
      path: item,
      variant: 'an invalid attribute',
      request: async (ctx) => ({ params: { id: await fresh(ctx) }, body: doc(type, invalid) }),
      status: 422,
      schema: errorDocument,
    },
    {
      method: 'DELETE',
      path: item,
      request: async (ctx) => ({ params: { id: await fresh(ctx) } }),
      status: 200,
      schema: { reference: op('delete'), status: 200 },
    },
    ...unknownIdRows(item, [
      ['GET', op('get')],
      ['PUT', op('update'), doc(type, { description: 'x' })],
      ['DELETE', op('delete')],
    ]),
    ...entityTagRows(item, fresh, [['PUT', doc(type, { description: 'x' })], ['DELETE']]),
  ];
}

const severities = { path: '/v1/severities', type: 'severities', op: (verb: string) => `${verb}Severit${verb === 'list' ? 'ies' : 'y'}` };
const incidentTypes = {
  path: '/v1/incident_types',
  type: 'incident_types',
  op: (verb: string) => `${verb}IncidentType${verb === 'list' ? 's' : ''}`,
};
const chat = {
  notify_emails: ['oncall@example.com'],
  chat_channels: [{ id: 'C1', name: 'ops' }],
  chat_aliases: [{ id: 'S1', name: 'sre' }],
};

/** Severities and incident types (docs/api-contract.md §1), at the reference's paths. */
export const classificationOperations: ConformanceOperation[] = [
  ...classificationRows(
    severities,
    { description: 'Everything is down', severity: 'critical', color: '#FF0000', position: 9, ...chat },
    { severity: 'urgent' },
    'filter[search]=e&filter[severity][in]=critical,low&filter[color][not_eq]=%23000000&filter[created_at][lte]=2100-01-01T00:00:00Z',
  ),
  {
    method: 'GET',
    path: '/v1/severities/{id}',
    variant: 'a starting severity by slug',
    request: () => ({ params: { id: 'sev0' } }),
    status: 200,
    schema: { reference: 'getSeverity', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/severities/{id}',
    variant: 'in use by an incident',
    request: async (ctx) => {
      const id = await created(ctx, '/v1/severities', doc('severities', { name: `Used ${unique()}` }));
      await created(ctx, '/v1/incidents', doc('incidents', { title: `Uses ${unique()}`, severity_id: id }));
      return { params: { id } };
    },
    status: 422,
    schema: errorDocument,
  },
  ...classificationRows(
    incidentTypes,
    { description: 'Customer data exposed', color: '#00FF00', position: 2, ...chat, properties: [] },
    { color: 'green' },
    'filter[slug][not_eq]=nope&filter[name][not_in]=a,b&filter[color][not_eq]=%23000000&filter[created_at][gte]=2000-01-01T00:00:00Z',
  ),
  {
    method: 'DELETE',
    path: '/v1/incident_types/{id}',
    variant: 'in use by an incident',
    request: async (ctx) => {
      const id = await created(ctx, '/v1/incident_types', doc('incident_types', { name: `Used ${unique()}` }));
      await created(ctx, '/v1/incidents', doc('incidents', { title: `Uses ${unique()}`, incident_type_ids: [id] }));
      return { params: { id } };
    },
    status: 422,
    schema: errorDocument,
  },
];
