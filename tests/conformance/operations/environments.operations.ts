import { type ConformanceOperation, entityTagRows, unknownIdRows } from '../conformance-operation.js';
import { environmentProperty } from './catalog-properties.operations.js';

const environment = (attributes: Record<string, unknown>) => ({ data: { type: 'environments', attributes } });
const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;

/** Environments (docs/decisions.md, Resources), at the reference's paths. */
export const environmentOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/environments',
    variant: 'every attribute set',
    request: async (ctx) => ({
      body: environment({
        name: 'Production EU',
        description: 'Live traffic',
        color: '#FF0000',
        position: 1,
        external_id: 'prod-eu',
        notify_emails: ['oncall@example.com'],
        chat_channels: [{ id: 'C1', name: 'ops' }],
        chat_aliases: [{ id: 'S1', name: 'sre' }],
        properties: [{ catalog_property_id: await environmentProperty(ctx), value: 'eu-west-1' }],
      }),
    }),
    status: 201,
    schema: { reference: 'createEnvironment', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/environments',
    variant: 'only the required name: nulls and empty lists',
    request: () => ({ body: environment({ name: 'Staging' }) }),
    status: 201,
    schema: { reference: 'createEnvironment', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/environments',
    variant: 'name missing',
    request: () => ({ body: environment({ color: '#00FF00' }) }),
    status: 422,
    schema: { reference: 'createEnvironment', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/environments',
    variant: 'no credential',
    request: () => ({ body: environment({ name: 'Nobody' }), token: null }),
    status: 401,
    schema: { reference: 'createEnvironment', status: 401 },
  },
  {
    method: 'POST',
    path: '/v1/environments',
    variant: 'an observer key may not write',
    request: async (ctx) => {
      const key = await ctx.call('POST', '/v1/api_keys', {
        body: { data: { type: 'api_keys', attributes: { name: 'Observer', kind: 'global', role: 'observer' } } },
      });
      return { body: environment({ name: 'Forbidden' }), token: key.body.data.attributes.token };
    },
    status: 403,
    schema: errorDocument,
  },
  {
    method: 'POST',
    path: '/v1/environments',
    variant: 'wrong data.type',
    request: () => ({ body: { data: { type: 'services', attributes: { name: 'Wrong' } } } }),
    status: 409,
    schema: errorDocument,
  },
  { method: 'GET', path: '/v1/environments', status: 200, schema: { reference: 'listEnvironments', status: 200 } },
  {
    method: 'GET',
    path: '/v1/environments',
    variant: 'filters, sort and the second page',
    request: () => ({ query: 'filter[search]=e&filter[color][not_eq]=%23000000&sort=-created_at&page[size]=1&page[number]=2' }),
    status: 200,
    schema: { reference: 'listEnvironments', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/environments',
    variant: 'a page past the end',
    request: () => ({ query: 'page[number]=500' }),
    status: 200,
    schema: { reference: 'listEnvironments', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/environments',
    variant: 'an OAuth access token',
    request: async (ctx) => ({ token: await ctx.oauthToken() }),
    status: 200,
    schema: { reference: 'listEnvironments', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/environments',
    variant: 'bad page size',
    request: () => ({ query: 'page[size]=abc' }),
    status: 400,
    schema: errorDocument,
  },
  {
    method: 'GET',
    path: '/v1/environments/{id}',
    request: async (ctx) => ({ params: { id: await ctx.create.environment() } }),
    status: 200,
    schema: { reference: 'getEnvironment', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/environments/{id}',
    variant: 'by slug',
    request: async (ctx) => {
      const created = await ctx.call('POST', '/v1/environments', { body: environment({ name: `By slug ${ctx.unknownId.slice(0, 8)}` }) });
      return { params: { id: created.body.data.attributes.slug } };
    },
    status: 200,
    schema: { reference: 'getEnvironment', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/environments/{id}',
    request: async (ctx) => {
      const id = await ctx.create.environment();
      return { params: { id }, body: { data: { id, type: 'environments', attributes: { description: 'Updated', chat_channels: null } } } };
    },
    status: 200,
    schema: { reference: 'updateEnvironment', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/environments/{id}',
    aliasOf: 'PUT',
    request: async (ctx) => ({ params: { id: await ctx.create.environment() }, body: environment({ color: null, position: 3 }) }),
    status: 200,
    schema: { reference: 'updateEnvironment', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/environments/{id}',
    request: async (ctx) => ({ params: { id: await ctx.create.environment() } }),
    status: 200,
    schema: { reference: 'deleteEnvironment', status: 200 },
  },
  ...unknownIdRows('/v1/environments/{id}', [
    ['GET', 'getEnvironment'],
    ['PUT', 'updateEnvironment', environment({ description: 'x' })],
    ['DELETE', 'deleteEnvironment'],
  ]),
  {
    method: 'PUT',
    path: '/v1/environments/{id}',
    variant: 'If-Match names the current ETag',
    request: async (ctx) => {
      const id = await ctx.create.environment();
      const etag = String((await ctx.call('GET', `/v1/environments/${id}`)).headers.get('etag'));
      return { params: { id }, body: environment({ description: 'Guarded' }), headers: { 'if-match': etag } };
    },
    status: 200,
    schema: { reference: 'updateEnvironment', status: 200 },
  },
  ...entityTagRows('/v1/environments/{id}', (ctx) => ctx.create.environment(), [['PUT', environment({ description: 'x' })], ['DELETE']]),
];
