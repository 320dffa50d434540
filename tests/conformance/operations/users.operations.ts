import { type ConformanceOperation, entityTagRows, unknownIdRows } from '../conformance-operation.js';
import type { ConformanceContext } from '../support/conformance-system.js';

const user = (attributes: Record<string, unknown>) => ({ data: { type: 'users', attributes } });
const errors = (section: string) => ({ spec: 'errors', cite: `docs/api-contract.md ${section}` }) as const;

/** The `meta.next_cursor` of a one-row page of the users, making users until there is one. */
async function userCursor(ctx: ConformanceContext, query: string): Promise<string> {
  for (let tries = 0; tries < 3; tries += 1) {
    const cursor = (await ctx.call('GET', `/v1/users?page[size]=1${query}`)).body?.meta?.next_cursor;
    if (typeof cursor === 'string') return cursor;
    await ctx.create.user();
  }
  throw new Error('/v1/users gave no next_cursor');
}

/** The users directory (the reference's listUsers, getUser, updateUser, deleteUser); users/me is identity.operations.ts's. */
export const userOperations: ConformanceOperation[] = [
  { method: 'GET', path: '/v1/users', status: 200, schema: { reference: 'listUsers', status: 200 } },
  {
    method: 'GET',
    path: '/v1/users',
    variant: 'filters, sort and page',
    request: () => ({ query: 'filter[email]=admin@conformance.test&filter[role]=admin&filter[name]=a&sort=-created_at&page[size]=5' }),
    status: 200,
    schema: { reference: 'listUsers', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/users',
    variant: 'a cursor page (page[after])',
    request: async (ctx) => ({ query: `sort=-created_at&page[size]=1&page[after]=${await userCursor(ctx, '&sort=-created_at')}` }),
    status: 200,
    schema: { reference: 'listUsers', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/users',
    variant: 'a cursor of another filter set',
    request: async (ctx) => ({ query: `filter[role]=user&page[after]=${await userCursor(ctx, '')}` }),
    status: 400,
    schema: errors('§2 (Query parameters, Cursor pages)'),
  },
  {
    method: 'GET',
    path: '/v1/users',
    variant: 'no credential',
    request: () => ({ token: null }),
    status: 401,
    schema: { reference: 'listUsers', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/users/{id}',
    request: async (ctx) => ({ params: { id: await ctx.create.user() } }),
    status: 200,
    schema: { reference: 'getUser', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/users/{id}',
    variant: "include=teams and the reference's other includes",
    request: async (ctx) => {
      const id = await ctx.create.user();
      const team = await ctx.call('POST', '/v1/teams', {
        body: { data: { type: 'groups', attributes: { name: `Members ${id}`, user_ids: [Number(id)] } } },
      });
      if (team.status !== 201) throw new Error(`fixture: a team answered ${team.status}`);
      return {
        params: { id },
        query: 'include=teams,email_addresses,phone_numbers,devices,role,on_call_role,schedules,notification_rules',
      };
    },
    status: 200,
    schema: { reference: 'getUser', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/users',
    variant: 'include=teams',
    request: () => ({ query: 'include=teams&page[size]=5' }),
    status: 200,
    schema: { reference: 'listUsers', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/users/{id}',
    request: async (ctx) => ({
      params: { id: await ctx.create.user() },
      body: user({ first_name: 'Ada', last_name: null, time_zone: 'Europe/London', role: 'observer' }),
    }),
    status: 200,
    schema: { reference: 'updateUser', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/users/{id}',
    variant: 'not an IANA time zone',
    request: async (ctx) => ({ params: { id: await ctx.create.user() }, body: user({ time_zone: 'Mars/Olympus' }) }),
    status: 422,
    schema: errors('§2 (Errors)'),
  },
  {
    method: 'DELETE',
    path: '/v1/users/{id}',
    request: async (ctx) => ({ params: { id: await ctx.create.user() } }),
    status: 200,
    schema: { reference: 'deleteUser', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/users/{id}',
    variant: 'yourself',
    request: async (ctx) => ({
      params: { id: String((await ctx.call('GET', '/v1/users/me', { token: ctx.userToken })).body.data.id) },
      token: ctx.userToken,
    }),
    status: 422,
    schema: errors('§2 (Errors)'),
  },
  ...unknownIdRows('/v1/users/{id}', [
    ['GET', 'getUser'],
    ['PUT', 'updateUser', user({ first_name: 'x' })],
    ['DELETE', 'deleteUser'],
  ]),
  ...entityTagRows('/v1/users/{id}', (ctx) => ctx.create.user(), [['PUT', user({ time_zone: 'UTC' })], ['DELETE']]),
];
