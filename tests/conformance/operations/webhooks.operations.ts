import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const endpoint = (attributes: Record<string, unknown>) => ({ data: { type: 'webhooks_endpoints', attributes } });

/** Webhook endpoints and deliveries (docs/webhooks.md), and our event type catalog. */
export const webhookOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/webhooks/endpoints',
    variant: 'every attribute set',
    request: () => ({
      body: endpoint({
        name: 'Every attribute',
        url: 'http://127.0.0.1:9/hooks',
        event_types: ['incident.created', 'environment.updated'],
        enabled: false,
        custom_headers: [{ name: 'X-Tenant', value: 'conformance' }],
      }),
    }),
    status: 201,
    schema: { reference: 'createWebhooksEndpoint', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/webhooks/endpoints',
    variant: 'url missing',
    request: () => ({ body: endpoint({ name: 'No url' }) }),
    status: 422,
    schema: { reference: 'createWebhooksEndpoint', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/webhooks/endpoints',
    variant: 'no credential',
    request: () => ({ body: endpoint({ name: 'Nobody', url: 'http://127.0.0.1:9/hooks' }), token: null }),
    status: 401,
    schema: { reference: 'createWebhooksEndpoint', status: 401 },
  },
  { method: 'GET', path: '/v1/webhooks/endpoints', status: 200, schema: { reference: 'listWebhooksEndpoints', status: 200 } },
  {
    method: 'GET',
    path: '/v1/webhooks/endpoints',
    variant: 'filter and the first page of one',
    request: () => ({ query: 'filter[name]=every%20attribute&page[size]=1' }),
    status: 200,
    schema: { reference: 'listWebhooksEndpoints', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/webhooks/endpoints/{id}',
    request: async (ctx) => ({ params: { id: await ctx.create.webhookEndpoint() } }),
    status: 200,
    schema: { reference: 'getWebhooksEndpoint', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/webhooks/endpoints/{id}',
    request: async (ctx) => ({
      params: { id: await ctx.create.webhookEndpoint() },
      body: endpoint({ name: 'Renamed', enabled: false, event_types: [], custom_headers: [] }),
    }),
    status: 200,
    schema: { reference: 'updateWebhooksEndpoint', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/webhooks/endpoints/{id}',
    request: async (ctx) => ({ params: { id: await ctx.create.webhookEndpoint() } }),
    status: 200,
    schema: { reference: 'deleteWebhooksEndpoint', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/webhooks/endpoints/{endpoint_id}/deliveries',
    request: async (ctx) => ({ params: { endpoint_id: (await ctx.delivery()).endpointId } }),
    status: 200,
    schema: { reference: 'listWebhooksDeliveries', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/webhooks/endpoints/{endpoint_id}/deliveries',
    variant: 'failed ones, oldest first',
    request: async (ctx) => ({
      params: { endpoint_id: (await ctx.failedDelivery()).endpointId },
      query: 'filter[status]=failed&sort=created_at',
    }),
    status: 200,
    schema: { reference: 'listWebhooksDeliveries', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/webhooks/deliveries/{id}',
    request: async (ctx) => ({ params: { id: (await ctx.delivery()).id } }),
    status: 200,
    schema: { reference: 'getWebhooksDelivery', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/webhooks/deliveries/{id}',
    variant: 'with its attempts included',
    request: async (ctx) => ({ params: { id: (await ctx.delivery()).id }, query: 'include=attempts' }),
    status: 200,
    schema: { reference: 'getWebhooksDelivery', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/webhooks/deliveries/{id}',
    variant: 'failed for good, with its refused attempts',
    request: async (ctx) => ({ params: { id: (await ctx.failedDelivery()).id }, query: 'include=attempts' }),
    status: 200,
    schema: { reference: 'getWebhooksDelivery', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/webhooks/deliveries/{id}/deliver',
    request: async (ctx) => ({ params: { id: (await ctx.delivery()).id } }),
    status: 200,
    schema: { reference: 'deliverWebhooksDelivery', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/webhooks/deliveries/{id}/deliver',
    variant: 'If-Match names a stale ETag',
    request: async (ctx) => ({ params: { id: (await ctx.delivery()).id }, headers: { 'if-match': '"stale"' } }),
    status: 412,
    schema: { spec: 'errors', cite: 'docs/api-contract.md §2 (Entity tags and conditional requests)' },
  },
  ...unknownIdRows('/v1/webhooks/endpoints/{id}', [
    ['GET', 'getWebhooksEndpoint'],
    ['PUT', 'updateWebhooksEndpoint', endpoint({ name: 'x' })],
    ['DELETE', 'deleteWebhooksEndpoint'],
  ]),
  ...unknownIdRows('/v1/webhooks/deliveries/{id}', [['GET', 'getWebhooksDelivery']]),
  // Ours alone: the reference has neither operation, so the contract's document shapes apply.
  {
    method: 'GET',
    path: '/v1/webhooks/deliveries/{id}/attempts',
    request: async (ctx) => ({ params: { id: (await ctx.delivery()).id } }),
    status: 200,
    schema: { spec: 'collection', type: 'webhooks_delivery_attempts', cite: 'docs/api-contract.md §2 (Documents)' },
  },
  {
    method: 'GET',
    path: '/v1/webhooks/event_types',
    status: 200,
    schema: { spec: 'collection', type: 'webhooks_event_types', cite: 'docs/api-contract.md §2 (Documents)' },
  },
];
