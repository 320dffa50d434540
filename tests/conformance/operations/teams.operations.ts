import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, entityTagRows, unknownIdRows } from '../conformance-operation.js';

const tag = () => randomUUID().slice(0, 8);
const group = (attributes: Record<string, unknown>, id?: string) => ({ data: { type: 'groups', ...(id ? { id } : {}), attributes } });

/** A fresh group through the gateway (auth alone: incident-config need not know it). */
async function make(ctx: ConformanceContext, attributes: Record<string, unknown> = {}): Promise<{ id: string; slug: string }> {
  const res = await ctx.call('POST', '/v1/teams', { body: group({ name: `Team ${tag()}`, ...attributes }) });
  if (res.status !== 201) throw new Error(`fixture: a team answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id as string, slug: res.body.data.attributes.slug as string };
}

/** Every writable attribute of the reference's new_team, under our names (chat_* for slack_*). */
async function everything(ctx: ConformanceContext): Promise<Record<string, unknown>> {
  const member = Number(await ctx.create.user());
  const admin = Number(await ctx.create.user());
  return {
    name: `Every ${tag()}`,
    description: 'd',
    notify_emails: ['oncall@example.com'],
    color: '#FF0000',
    position: 1,
    backstage_id: 'default/group/x',
    external_id: `ext-${tag()}`,
    pagerduty_id: 'P1',
    pagerduty_service_id: 'PS1',
    opsgenie_id: 'o1',
    opsgenie_team_id: 'ot1',
    victor_ops_id: 'v1',
    pagertree_id: 'pt1',
    cortex_id: 'c1',
    opslevel_id: 'ol1',
    service_now_ci_sys_id: 's1',
    user_ids: [member],
    admin_ids: [admin],
    alerts_email_enabled: true,
    alert_urgency_id: randomUUID(),
    chat_channels: [{ id: 'C1', name: 'ops' }],
    chat_aliases: [{ id: 'S1', name: 'ops-team' }],
    alert_broadcast_enabled: true,
    alert_broadcast_channel: { id: 'C2', name: 'alerts' },
    properties: [{ catalog_property_id: randomUUID(), value: 'tier-1' }],
    incident_broadcast_enabled: false,
    incident_broadcast_channel: { id: 'C3' },
    auto_add_members_when_attached: true,
    auto_add_members_scope: 'public_only',
  };
}

const crud: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/teams',
    variant: 'every attribute set',
    request: async (ctx) => ({ body: group(await everything(ctx)) }),
    status: 201,
    schema: { reference: 'createTeam', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/teams',
    variant: 'only the required name',
    request: () => ({ body: group({ name: `Only ${tag()}` }) }),
    status: 201,
    schema: { reference: 'createTeam', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/teams',
    variant: 'name missing',
    request: () => ({ body: group({ color: '#00FF00' }) }),
    status: 422,
    schema: { reference: 'createTeam', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/teams',
    variant: 'a user of no team of ours',
    request: () => ({ body: group({ name: `Ghosts ${tag()}`, user_ids: [2_000_000_000] }) }),
    status: 422,
    schema: { reference: 'createTeam', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/teams',
    variant: 'no credential',
    request: () => ({ body: group({ name: 'Nobody' }), token: null }),
    status: 401,
    schema: { reference: 'createTeam', status: 401 },
  },
  { method: 'GET', path: '/v1/teams', status: 200, schema: { reference: 'listTeams', status: 200 } },
  {
    method: 'GET',
    path: '/v1/teams',
    variant: 'filters and sort',
    request: () => ({
      query:
        'filter[search]=e&filter[name][not_eq]=x&filter[color]=%23FF0000&filter[alert_broadcast_enabled]=true&filter[created_at][lte]=2100-01-01T00:00:00Z&sort=-name&page[size]=2',
    }),
    status: 200,
    schema: { reference: 'listTeams', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/teams',
    variant: 'a cursor page',
    request: async (ctx) => {
      await make(ctx);
      await make(ctx);
      const first = await ctx.call('GET', '/v1/teams?page[size]=1');
      return { query: `page[size]=1&page[after]=${String(first.body.meta.next_cursor)}` };
    },
    status: 200,
    schema: { reference: 'listTeams', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/teams/{id}',
    request: async (ctx) => ({ params: { id: (await make(ctx, await everything(ctx))).id } }),
    status: 200,
    schema: { reference: 'getTeam', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/teams/{id}',
    variant: "include=users and on-call's includes, which add nothing",
    request: async (ctx) => ({
      params: { id: (await make(ctx, { user_ids: [Number(await ctx.create.user())] })).id },
      query: 'include=users,schedules,escalation_policies',
    }),
    status: 200,
    schema: { reference: 'getTeam', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/teams/{id}',
    variant: 'by slug',
    request: async (ctx) => ({ params: { id: (await make(ctx)).slug } }),
    status: 200,
    schema: { reference: 'getTeam', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/teams/{id}',
    request: async (ctx) => {
      const { id } = await make(ctx);
      return { params: { id }, body: group({ description: 'Updated', chat_channels: null, position: 4, admin_ids: [] }, id) };
    },
    status: 200,
    schema: { reference: 'updateTeam', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/teams/{id}',
    variant: "a team-wide key of role user changing the members (not the group's admin)",
    request: async (ctx) => {
      const { id } = await make(ctx);
      const key = await ctx.call('POST', '/v1/api_keys', {
        body: { data: { type: 'api_keys', attributes: { name: `Member changer ${tag()}`, kind: 'global', role: 'user' } } },
      });
      if (key.status !== 201) throw new Error(`fixture: an API key answered ${key.status}`);
      const member = Number(await ctx.create.user());
      return { params: { id }, body: group({ user_ids: [member] }, id), token: key.body.data.attributes.token };
    },
    status: 403,
    schema: { spec: 'errors', cite: 'docs/security.md (Group membership): 403 not_group_admin' },
  },
  {
    method: 'DELETE',
    path: '/v1/teams/{id}',
    request: async (ctx) => ({ params: { id: (await make(ctx)).id } }),
    status: 200,
    schema: { reference: 'deleteTeam', status: 200 },
  },
  ...unknownIdRows('/v1/teams/{id}', [
    ['GET', 'getTeam'],
    ['PUT', 'updateTeam', group({ description: 'x' })],
    ['DELETE', 'deleteTeam'],
  ]),
  ...entityTagRows('/v1/teams/{id}', async (ctx) => (await make(ctx)).id, [['PUT', group({ description: 'x' })], ['DELETE']]),
];

const entities = () => [
  { external_id: `bulk-${tag()}`, name: `Bulk ${tag()}`, description: 'd', pagertree_id: 'pt' },
  { external_id: `bulk-${tag()}`, name: `Bulk ${tag()}` },
];

const bulk: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/teams/bulk_upsert',
    request: () => ({ body: { entities: entities() } }),
    status: 200,
    schema: { reference: 'bulkUpsertGroups', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/teams/bulk_upsert',
    variant: 'a new entity without name',
    request: () => ({ body: { entities: [{ external_id: `nameless-${tag()}` }] } }),
    status: 422,
    schema: { reference: 'bulkUpsertGroups', status: 422 },
  },
  {
    // The reference's 422 is anyOf errors_list or the per-entity shape; ours must be the latter.
    method: 'POST',
    path: '/v1/teams/bulk_upsert',
    variant: 'per-entity errors',
    request: () => ({ body: { entities: [{ external_id: `nameless-${tag()}` }] } }),
    status: 422,
    schema: { component: 'bulk_upsert_teams_error', cite: 'docs/decisions.md (Groups): a 422 lists each bad entity' },
  },
  {
    method: 'POST',
    path: '/v1/teams/bulk_upsert',
    variant: 'no credential',
    request: () => ({ body: { entities: [] }, token: null }),
    status: 401,
    schema: { reference: 'bulkUpsertGroups', status: 401 },
  },
  {
    method: 'POST',
    path: '/v1/teams/bulk_delete',
    request: async (ctx) => {
      const externalId = `gone-${tag()}`;
      await ctx.call('POST', '/v1/teams/bulk_upsert', { body: { entities: [{ external_id: externalId, name: `Gone ${tag()}` }] } });
      return { body: { external_ids: [externalId, `never-${tag()}`] } };
    },
    status: 200,
    schema: { reference: 'bulkDeleteGroups', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/teams/bulk_delete',
    variant: 'prune by provenance',
    request: () => ({ body: { managed_by: 'terraform', keep_external_ids: ['kept'] } }),
    status: 200,
    schema: { reference: 'bulkDeleteGroups', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/teams/bulk_delete',
    variant: 'no external_ids',
    request: () => ({ body: { external_ids: [] } }),
    status: 422,
    schema: { reference: 'bulkDeleteGroups', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/teams/bulk_delete',
    variant: 'no credential',
    request: () => ({ body: { managed_by: 'api' }, token: null }),
    status: 401,
    schema: { reference: 'bulkDeleteGroups', status: 401 },
  },
];

/** Teams (the reference's /v1/teams; JSON:API type groups), served by auth (docs/api-contract.md §1). */
export const teamOperations: ConformanceOperation[] = [...crud, ...bulk];
