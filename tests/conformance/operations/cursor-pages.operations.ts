import type { ConformanceOperation } from '../conformance-operation.js';
import type { ConformanceContext } from '../support/conformance-system.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Query parameters, Cursor pages)' } as const;

/** The `meta.next_cursor` of the first page of one row of `path` (`query` added), making records with `create` until there is one. */
async function cursorOf(ctx: ConformanceContext, path: string, create: () => Promise<unknown>, query = ''): Promise<string> {
  for (let tries = 0; tries < 3; tries += 1) {
    const res = await ctx.call('GET', `${path}?page[size]=1${query}`);
    const cursor = res.body?.meta?.next_cursor;
    if (typeof cursor === 'string') return cursor;
    await create();
  }
  throw new Error(`${path} gave no next_cursor`);
}

/**
 * Cursor pages (docs/api-contract.md §2, Query parameters): `page[after]` on stored
 * collections, beyond the reference's alerts, alert events and incidents; a cursor page
 * answers the list's own schema, with `meta.next_cursor` and no totals.
 */
export const cursorPageOperations: ConformanceOperation[] = [
  {
    method: 'GET',
    path: '/v1/environments',
    variant: 'a cursor page (page[after])',
    request: async (ctx) => ({
      query: `sort=-created_at&page[size]=1&page[after]=${await cursorOf(ctx, '/v1/environments', ctx.create.environment, '&sort=-created_at')}`,
    }),
    status: 200,
    schema: { reference: 'listEnvironments', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/environments',
    variant: 'a cursor of another sort',
    request: async (ctx) => ({
      query: `sort=name&page[after]=${await cursorOf(ctx, '/v1/environments', ctx.create.environment)}`,
    }),
    status: 400,
    schema: errorDocument,
  },
  {
    method: 'GET',
    path: '/v1/environments',
    variant: 'page[after] with page[number]',
    request: () => ({ query: 'page[number]=2&page[after]=abc' }),
    status: 400,
    schema: errorDocument,
  },
  {
    method: 'GET',
    path: '/v1/incidents',
    variant: 'a cursor page (page[after])',
    request: async (ctx) => {
      const create = () => ctx.call('POST', '/v1/incidents', { body: { data: { type: 'incidents', attributes: {} } } });
      return { query: `page[after]=${await cursorOf(ctx, '/v1/incidents', create)}` };
    },
    status: 200,
    schema: { reference: 'listIncidents', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/api_keys',
    variant: 'a cursor page (page[after])',
    request: async (ctx) => ({ query: `page[size]=1&page[after]=${await cursorOf(ctx, '/v1/api_keys', ctx.create.apiKey)}` }),
    status: 200,
    schema: { reference: 'listApiKeys', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/webhooks/endpoints/{endpoint_id}/deliveries',
    variant: 'a cursor this API did not issue',
    request: async (ctx) => ({ params: { endpoint_id: (await ctx.delivery()).endpointId }, query: 'page[after]=bm90LWEtY3Vyc29y' }),
    status: 400,
    schema: errorDocument,
  },
];
