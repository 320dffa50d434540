import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const apiKey = (attributes: Record<string, unknown>) => ({ data: { type: 'api_keys', attributes } });
const application = (attributes: Record<string, unknown>) => ({ data: { type: 'oauth_applications', attributes } });

/** API keys and the current user (the reference's api_keys and users/me); OAuth applications. */
export const identityOperations: ConformanceOperation[] = [
  {
    method: 'POST', path: '/v1/api_keys',
    request: () => ({ body: apiKey({ name: 'Deploy bot', description: 'CI', kind: 'global', expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() }) }),
    status: 201, schema: { reference: 'createApiKey', status: 201 },
  },
  {
    method: 'POST', path: '/v1/api_keys', variant: "the reference's kind name",
    request: () => ({ body: apiKey({ name: 'Org key', kind: 'organization' }) }),
    status: 201, schema: { reference: 'createApiKey', status: 201 },
  },
  {
    method: 'POST', path: '/v1/api_keys', variant: "a group key in the reference's single-group form",
    request: () => ({ body: apiKey({ name: 'Team key', kind: 'team', group_id: 'platform' }) }),
    status: 201, schema: { reference: 'createApiKey', status: 201 },
  },
  {
    method: 'POST', path: '/v1/api_keys', variant: 'name missing',
    request: () => ({ body: apiKey({ kind: 'global' }) }),
    status: 422, schema: { reference: 'createApiKey', status: 422 },
  },
  {
    method: 'POST', path: '/v1/api_keys', variant: 'unknown credential',
    request: () => ({ body: apiKey({ name: 'x', kind: 'global' }), token: 'fwk_unknown_unknown' }),
    status: 401, schema: { reference: 'createApiKey', status: 401 },
  },
  { method: 'GET', path: '/v1/api_keys', status: 200, schema: { reference: 'listApiKeys', status: 200 } },
  {
    method: 'GET', path: '/v1/api_keys', variant: 'filter and page',
    request: () => ({ query: 'filter[name]=deploy%20bot&page[size]=1' }),
    status: 200, schema: { reference: 'listApiKeys', status: 200 },
  },
  {
    method: 'GET', path: '/v1/api_keys', variant: 'no credential',
    request: () => ({ token: null }),
    status: 401, schema: { reference: 'listApiKeys', status: 401 },
  },
  {
    method: 'GET', path: '/v1/api_keys/{id}',
    request: async (ctx) => ({ params: { id: await ctx.create.apiKey() } }),
    status: 200, schema: { reference: 'getApiKey', status: 200 },
  },
  {
    method: 'PUT', path: '/v1/api_keys/{id}',
    request: async (ctx) => ({ params: { id: await ctx.create.apiKey() }, body: apiKey({ name: 'Renamed', expires_at: null }) }),
    status: 200, schema: { reference: 'updateApiKey', status: 200 },
  },
  {
    method: 'POST', path: '/v1/api_keys/{id}/rotate',
    request: async (ctx) => ({ params: { id: await ctx.create.apiKey() }, body: apiKey({ grace_period_minutes: 5 }) }),
    status: 200, schema: { reference: 'rotateApiKey', status: 200 },
  },
  {
    method: 'DELETE', path: '/v1/api_keys/{id}',
    request: async (ctx) => ({ params: { id: await ctx.create.apiKey() } }),
    status: 200, schema: { reference: 'deleteApiKey', status: 200 },
  },
  ...unknownIdRows('/v1/api_keys/{id}', [
    ['GET', 'getApiKey'], ['PUT', 'updateApiKey', apiKey({ name: 'x' })], ['DELETE', 'deleteApiKey'],
  ]),
  ...unknownIdRows('/v1/api_keys/{id}/rotate', [['POST', 'rotateApiKey', apiKey({})]]),
  {
    method: 'GET', path: '/v1/users/me',
    request: (ctx) => ({ token: ctx.userToken }),
    status: 200, schema: { reference: 'getCurrentUser', status: 200 },
  },
  {
    method: 'GET', path: '/v1/users/me', variant: 'no credential',
    request: () => ({ token: null }),
    status: 401, schema: { reference: 'getCurrentUser', status: 401 },
  },
  {
    method: 'GET', path: '/v1/users/me', variant: "an OAuth client-credentials token: the application's service user",
    request: async (ctx) => ({ token: await ctx.oauthToken() }),
    status: 200, schema: { reference: 'getCurrentUser', status: 200 },
  },
  {
    method: 'GET', path: '/v1/users/me', variant: 'a team key, acting for no user',
    status: 404, schema: { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' },
  },
  // The reference has no OAuth applications (and our docs list no attribute schema for them):
  // only the contract's document shapes and errors apply (docs/api-contract.md §2).
  {
    method: 'POST', path: '/v1/oauth_applications',
    request: () => ({ body: application({ name: 'Reporter', description: 'Nightly report', scopes: ['ir.environments:read'] }) }),
    status: 201, schema: { spec: 'single', type: 'oauth_applications', cite: 'docs/api-contract.md §2 (Documents)' },
  },
  { method: 'GET', path: '/v1/oauth_applications', status: 200, schema: { spec: 'collection', type: 'oauth_applications', cite: 'docs/api-contract.md §2 (Documents)' } },
  {
    method: 'GET', path: '/v1/oauth_applications/{id}',
    request: async (ctx) => ({ params: { id: await ctx.create.oauthApplication() } }),
    status: 200, schema: { spec: 'single', type: 'oauth_applications', cite: 'docs/api-contract.md §2 (Documents)' },
  },
  {
    method: 'PATCH', path: '/v1/oauth_applications/{id}',
    request: async (ctx) => ({ params: { id: await ctx.create.oauthApplication() }, body: application({ description: null }) }),
    status: 200, schema: { spec: 'single', type: 'oauth_applications', cite: 'docs/api-contract.md §2 (Documents)' },
  },
  {
    method: 'DELETE', path: '/v1/oauth_applications/{id}',
    request: async (ctx) => ({ params: { id: await ctx.create.oauthApplication() } }),
    status: 200, schema: { spec: 'single', type: 'oauth_applications', cite: 'docs/api-contract.md §2 (Documents)' },
  },
  {
    method: 'GET', path: '/v1/oauth_applications/{id}', variant: 'unknown id',
    request: (ctx) => ({ params: { id: ctx.unknownId } }),
    status: 404, schema: { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' },
  },
];
