import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const dashboard = (attributes: Record<string, unknown>) => ({ data: { type: 'dashboards', attributes } });
const panel = (attributes: Record<string, unknown>) => ({ data: { type: 'dashboard_panels', attributes } });
const grant = (attributes: Record<string, unknown>) => ({ data: { type: 'authorizations', attributes } });
const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;
const name = () => `Board ${randomUUID().slice(0, 8)}`;
const params = {
  display: 'column_chart',
  description: 'Incidents per week',
  table_fields: ['title'],
  legend: { groups: 'all' },
  datalabels: { enabled: true },
  datasets: [
    {
      name: 'Resolved',
      collection: 'incidents',
      filter: [{ operation: 'and', rules: [{ operation: 'and', condition: '=', key: 'status', value: 'resolved' }] }],
      group_by: { key: 'incident_role', value: 'commander' },
      aggregate: { operation: 'count', key: null, cumulative: false },
    },
  ],
};

async function created(ctx: ConformanceContext, path: string, body: unknown, token?: string): Promise<string> {
  const res = await ctx.call('POST', path, { body, token });
  if (res.status !== 201) throw new Error(`fixture: POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}
/** A fresh team dashboard; its id. */
const teamDashboard = (ctx: ConformanceContext) => created(ctx, '/v1/dashboards', dashboard({ name: name(), owner: 'team' }));
/** A fresh panel on a fresh dashboard; its id. */
const freshPanel = async (ctx: ConformanceContext) =>
  created(
    ctx,
    `/v1/dashboards/${await teamDashboard(ctx)}/panels`,
    panel({ name: 'Resolved', params, position: { x: 0, y: 0, w: 6, h: 4 } }),
  );
/** A fresh read grant to a user on a fresh dashboard; its id. */
const freshGrant = async (ctx: ConformanceContext) =>
  created(
    ctx,
    '/v1/authorizations',
    grant({
      authorizable_id: await teamDashboard(ctx),
      authorizable_type: 'Dashboard',
      grantee_type: 'User',
      grantee_id: '4242',
      permissions: ['read'],
    }),
  );

/** Dashboards and their panels (docs/decisions.md, Resources). */
export const dashboardOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/dashboards',
    variant: "a user's, every attribute set",
    request: (ctx) => ({
      token: ctx.userToken,
      body: dashboard({
        name: name(),
        description: 'Weekly review',
        owner: 'user',
        public: false,
        range: '2026-01-01T00:00:00Z to 2026-02-01T00:00:00Z',
        auto_refresh: true,
        color: '#D7F5E1',
        icon: '📈',
        period: 'week',
      }),
    }),
    status: 201,
    schema: { reference: 'createDashboard', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/dashboards',
    variant: 'a hex colour beyond the reference five',
    request: () => ({ body: dashboard({ name: name(), owner: 'team', color: '#1a2B3c' }) }),
    status: 201,
    schema: { reference: 'createDashboard', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/dashboards',
    variant: "the team's, only the required name and owner",
    request: () => ({ body: dashboard({ name: name(), owner: 'team' }) }),
    status: 201,
    schema: { reference: 'createDashboard', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/dashboards',
    variant: 'owner missing',
    request: () => ({ body: dashboard({ name: name() }) }),
    status: 422,
    schema: { reference: 'createDashboard', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/dashboards',
    variant: 'no credential',
    request: () => ({ body: dashboard({ name: name(), owner: 'team' }), token: null }),
    status: 401,
    schema: { reference: 'createDashboard', status: 401 },
  },
  { method: 'GET', path: '/v1/dashboards', status: 200, schema: { reference: 'listDashboards', status: 200 } },
  {
    method: 'GET',
    path: '/v1/dashboards',
    variant: 'include=panels, a page of two',
    request: async (ctx) => {
      await freshPanel(ctx);
      return { query: 'include=panels&page[size]=2&sort=-created_at' };
    },
    status: 200,
    schema: { reference: 'listDashboards', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/dashboards/{id}',
    variant: 'include=panels',
    request: async (ctx) => {
      const id = await teamDashboard(ctx);
      await created(ctx, `/v1/dashboards/${id}/panels`, panel({ params: { display: 'table' } }));
      return { params: { id }, query: 'include=panels' };
    },
    status: 200,
    schema: { reference: 'getDashboard', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/dashboards/{id}',
    request: async (ctx) => ({
      params: { id: await teamDashboard(ctx) },
      body: dashboard({ name: name(), description: null, public: true, range: null, auto_refresh: false, icon: '🔥' }),
    }),
    status: 200,
    schema: { reference: 'updateDashboard', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/dashboards/{id}',
    request: async (ctx) => ({ params: { id: await teamDashboard(ctx) } }),
    status: 200,
    schema: { reference: 'deleteDashboard', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/dashboards/{id}/duplicate',
    request: async (ctx) => ({ params: { id: await teamDashboard(ctx) }, token: ctx.userToken }),
    status: 201,
    schema: { reference: 'duplicateDashboard', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/dashboards/{id}/duplicate',
    variant: 'no credential',
    request: (ctx) => ({ params: { id: ctx.unknownId }, token: null }),
    status: 401,
    schema: { reference: 'duplicateDashboard', status: 401 },
  },
  {
    method: 'POST',
    path: '/v1/dashboards/{id}/set_default',
    request: async (ctx) => ({ params: { id: await teamDashboard(ctx) }, token: ctx.userToken }),
    status: 200,
    schema: { reference: 'setDefaultDashboard', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/dashboards/{id}/set_default',
    variant: 'no credential',
    request: (ctx) => ({ params: { id: ctx.unknownId }, token: null }),
    status: 401,
    schema: { reference: 'setDefaultDashboard', status: 401 },
  },
  ...unknownIdRows('/v1/dashboards/{id}', [
    ['GET', 'getDashboard'],
    ['PUT', 'updateDashboard', dashboard({ name: 'x' })],
    ['DELETE', 'deleteDashboard'],
  ]),

  {
    method: 'POST',
    path: '/v1/dashboards/{dashboard_id}/panels',
    variant: 'every attribute set',
    request: async (ctx) => ({
      params: { dashboard_id: await teamDashboard(ctx) },
      body: panel({ name: 'Resolved', params, position: { x: 0, y: 0, w: 6, h: 4 } }),
    }),
    status: 201,
    schema: { reference: 'createDashboardPanel', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/dashboards/{dashboard_id}/panels',
    variant: 'no credential',
    request: (ctx) => ({ params: { dashboard_id: ctx.unknownId }, body: panel({ params }), token: null }),
    status: 401,
    schema: { reference: 'createDashboardPanel', status: 401 },
  },
  {
    method: 'POST',
    path: '/v1/dashboards/{dashboard_id}/panels',
    variant: 'params missing',
    request: async (ctx) => ({ params: { dashboard_id: await teamDashboard(ctx) }, body: panel({ name: 'x' }) }),
    status: 422,
    schema: errorDocument,
  },
  {
    method: 'GET',
    path: '/v1/dashboards/{dashboard_id}/panels',
    request: async (ctx) => {
      const id = await teamDashboard(ctx);
      await created(ctx, `/v1/dashboards/${id}/panels`, panel({ params }));
      return { params: { dashboard_id: id } };
    },
    status: 200,
    schema: { reference: 'listDashboardPanels', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/dashboards/{dashboard_id}/panels',
    variant: 'unknown dashboard',
    request: (ctx) => ({ params: { dashboard_id: ctx.unknownId } }),
    status: 404,
    schema: errorDocument,
  },
  {
    method: 'GET',
    path: '/v1/dashboard_panels/{id}',
    request: async (ctx) => ({ params: { id: await freshPanel(ctx) } }),
    status: 200,
    schema: { reference: 'getDashboardPanel', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/dashboard_panels/{id}',
    request: async (ctx) => ({
      params: { id: await freshPanel(ctx) },
      body: panel({ name: null, params: { display: 'pie_chart' }, position: null }),
    }),
    status: 200,
    schema: { reference: 'updateDashboardPanel', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/dashboard_panels/{id}',
    request: async (ctx) => ({ params: { id: await freshPanel(ctx) } }),
    status: 200,
    schema: { reference: 'deleteDashboardPanel', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/dashboard_panels/{id}/duplicate',
    request: async (ctx) => ({ params: { id: await freshPanel(ctx) } }),
    status: 201,
    schema: { reference: 'duplicateDashboardPanel', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/dashboard_panels/{id}/duplicate',
    variant: 'no credential',
    request: (ctx) => ({ params: { id: ctx.unknownId }, token: null }),
    status: 401,
    schema: { reference: 'duplicateDashboardPanel', status: 401 },
  },
  // The reference declares no 404 on panel items; ours answers the contract's error document.
  ...(['GET', 'PUT', 'DELETE'] as const).map((method): ConformanceOperation => ({
    method,
    path: '/v1/dashboard_panels/{id}',
    variant: 'unknown id',
    request: (ctx) => ({ params: { id: ctx.unknownId }, body: method === 'PUT' ? panel({ name: 'x' }) : undefined }),
    status: 404,
    schema: errorDocument,
  })),
];

/** Authorizations on dashboards (docs/decisions.md, Resources; docs/security.md, "Dashboard access"). */
export const authorizationOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/authorizations',
    variant: 'a user grant',
    request: async (ctx) => ({
      body: grant({
        authorizable_id: await teamDashboard(ctx),
        authorizable_type: 'Dashboard',
        grantee_type: 'User',
        grantee_id: '4242',
        permissions: ['read', 'update'],
      }),
    }),
    status: 201,
    schema: { reference: 'createAuthorization', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/authorizations',
    variant: 'no credential',
    request: (ctx) => ({
      body: grant({
        authorizable_id: ctx.unknownId,
        authorizable_type: 'Dashboard',
        grantee_type: 'User',
        grantee_id: '1',
        permissions: [],
      }),
      token: null,
    }),
    status: 401,
    schema: { reference: 'createAuthorization', status: 401 },
  },
  {
    method: 'POST',
    path: '/v1/authorizations',
    variant: 'an unknown dashboard',
    request: (ctx) => ({
      body: grant({
        authorizable_id: ctx.unknownId,
        authorizable_type: 'Dashboard',
        grantee_type: 'User',
        grantee_id: '1',
        permissions: ['read'],
      }),
    }),
    status: 422,
    schema: errorDocument,
  },
  { method: 'GET', path: '/v1/authorizations', status: 200, schema: { reference: 'listAuthorizations', status: 200 } },
  {
    method: 'GET',
    path: '/v1/authorizations',
    variant: 'filters, sort and a page',
    request: async (ctx) => {
      await freshGrant(ctx);
      return {
        query: 'filter[authorizable_type]=Dashboard&filter[grantee_type]=User&filter[grantee_id]=4242&sort=-created_at&page[size]=1',
      };
    },
    status: 200,
    schema: { reference: 'listAuthorizations', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/authorizations/{id}',
    request: async (ctx) => ({ params: { id: await freshGrant(ctx) } }),
    status: 200,
    schema: { reference: 'getAuthorization', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/authorizations/{id}',
    request: async (ctx) => ({
      params: { id: await freshGrant(ctx) },
      body: grant({ permissions: ['read', 'update', 'authorize', 'destroy'] }),
    }),
    status: 200,
    schema: { reference: 'updateAuthorization', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/authorizations/{id}',
    request: async (ctx) => ({ params: { id: await freshGrant(ctx) } }),
    status: 200,
    schema: { reference: 'deleteAuthorization', status: 200 },
  },
  ...unknownIdRows('/v1/authorizations/{id}', [
    ['GET', 'getAuthorization'],
    ['PUT', 'updateAuthorization', grant({ permissions: ['read'] })],
    ['DELETE', 'deleteAuthorization'],
  ]),
];
