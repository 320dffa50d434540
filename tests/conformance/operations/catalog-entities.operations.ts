import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const tag = () => randomUUID().slice(0, 8);
const document = (type: string, attributes: Record<string, unknown>, id?: string) => ({
  data: { type, ...(id ? { id } : {}), attributes },
});

/** The reference's operationIds of one family (`Service`, `Services`). */
interface Family {
  type: string;
  one: string;
  many: string;
}

/** A fresh record of the family through the gateway; its id. */
async function make(ctx: ConformanceContext, type: string, attributes: Record<string, unknown> = {}): Promise<string> {
  const res = await ctx.call('POST', `/v1/${type}`, { body: document(type, { name: `${type} ${tag()}`, ...attributes }) });
  if (res.status !== 201) throw new Error(`fixture: ${type} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** Rows of one family's CRUD (docs/decisions.md, Resources): create, list, get by id or slug, PUT, delete, their 404s. */
function crudRows(
  { type, one, many }: Family,
  everything: (ctx: ConformanceContext) => Promise<Record<string, unknown>>,
): ConformanceOperation[] {
  const path = `/v1/${type}`;
  const item = `${path}/{id}`;
  return [
    {
      method: 'POST',
      path,
      variant: 'every attribute set',
      request: async (ctx) => ({ body: document(type, { name: `Every ${tag()}`, ...(await everything(ctx)) }) }),
      status: 201,
      schema: { reference: `create${one}`, status: 201 },
    },
    {
      method: 'POST',
      path,
      variant: 'only the required name',
      request: () => ({ body: document(type, { name: `Only ${tag()}` }) }),
      status: 201,
      schema: { reference: `create${one}`, status: 201 },
    },
    {
      method: 'POST',
      path,
      variant: 'name missing',
      request: () => ({ body: document(type, { color: '#00FF00' }) }),
      status: 422,
      schema: { reference: `create${one}`, status: 422 },
    },
    {
      method: 'POST',
      path,
      variant: 'no credential',
      request: () => ({ body: document(type, { name: 'Nobody' }), token: null }),
      status: 401,
      schema: { reference: `create${one}`, status: 401 },
    },
    { method: 'GET', path, status: 200, schema: { reference: `list${many}`, status: 200 } },
    {
      method: 'GET',
      path,
      variant: 'filters and sort',
      request: () => ({
        query: 'filter[search]=e&filter[name][not_eq]=x&filter[created_at][lte]=2100-01-01T00:00:00Z&sort=-name&page[size]=2',
      }),
      status: 200,
      schema: { reference: `list${many}`, status: 200 },
    },
    {
      method: 'GET',
      path: item,
      request: async (ctx) => ({ params: { id: await make(ctx, type) } }),
      status: 200,
      schema: { reference: `get${one}`, status: 200 },
    },
    {
      method: 'PUT',
      path: item,
      request: async (ctx) => {
        const id = await make(ctx, type);
        return { params: { id }, body: document(type, { description: 'Updated', chat_channels: null, position: 4 }, id) };
      },
      status: 200,
      schema: { reference: `update${one}`, status: 200 },
    },
    {
      method: 'DELETE',
      path: item,
      request: async (ctx) => ({ params: { id: await make(ctx, type) } }),
      status: 200,
      schema: { reference: `delete${one}`, status: 200 },
    },
    ...unknownIdRows(item, [
      [`GET`, `get${one}`],
      ['PUT', `update${one}`, document(type, { description: 'x' })],
      ['DELETE', `delete${one}`],
    ]),
  ];
}

/** Rows of a family's bulk_upsert and bulk_delete (docs/decisions.md, "Bulk upsert", "Bulk delete"). */
function bulkRows({ type, many }: Family): ConformanceOperation[] {
  const upsert = `/v1/${type}/bulk_upsert`;
  const remove = `/v1/${type}/bulk_delete`;
  const entities = () => [
    { external_id: `bulk-${tag()}`, name: `Bulk ${tag()}`, description: 'd' },
    { external_id: `bulk-${tag()}`, name: `Bulk ${tag()}` },
  ];
  return [
    {
      method: 'POST',
      path: upsert,
      request: () => ({ body: { entities: entities() } }),
      status: 200,
      schema: { reference: `bulkUpsert${many}`, status: 200 },
    },
    {
      method: 'POST',
      path: upsert,
      variant: 'a new entity without name',
      request: () => ({ body: { entities: [{ external_id: `nameless-${tag()}` }] } }),
      status: 422,
      schema: { reference: `bulkUpsert${many}`, status: 422 },
    },
    {
      // The reference's 422 is anyOf errors_list or the per-entity shape; ours must be the latter.
      method: 'POST',
      path: upsert,
      variant: 'per-entity errors',
      request: () => ({ body: { entities: [{ external_id: `nameless-${tag()}` }] } }),
      status: 422,
      schema: { component: `bulk_upsert_${type}_error`, cite: 'docs/decisions.md (Bulk upsert): a 422 lists each bad entity' },
    },
    {
      method: 'POST',
      path: upsert,
      variant: 'no credential',
      request: () => ({ body: { entities: [] }, token: null }),
      status: 401,
      schema: { reference: `bulkUpsert${many}`, status: 401 },
    },
    {
      method: 'POST',
      path: remove,
      request: async (ctx) => {
        const externalId = `gone-${tag()}`;
        await ctx.call('POST', upsert, { body: { entities: [{ external_id: externalId, name: `Gone ${tag()}` }] } });
        return { body: { external_ids: [externalId, `never-${tag()}`] } };
      },
      status: 200,
      schema: { reference: `bulkDelete${many}`, status: 200 },
    },
    {
      method: 'POST',
      path: remove,
      variant: 'no external_ids',
      request: () => ({ body: { external_ids: [] } }),
      status: 422,
      schema: { reference: `bulkDelete${many}`, status: 422 },
    },
    {
      method: 'POST',
      path: remove,
      variant: 'no credential',
      request: () => ({ body: { managed_by: 'api' }, token: null }),
      status: 401,
      schema: { reference: `bulkDelete${many}`, status: 401 },
    },
  ];
}

const services: Family = { type: 'services', one: 'Service', many: 'Services' };
const functionalities: Family = { type: 'functionalities', one: 'Functionality', many: 'Functionalities' };

/** A property of the family's own catalog: values must name one (issue 9). */
async function property(ctx: ConformanceContext, family: string): Promise<string> {
  const res = await ctx.call('POST', `/v1/${family}/properties`, {
    body: document('catalog_properties', { name: `p ${tag()}`, kind: 'text' }),
  });
  if (res.status !== 201) throw new Error(`fixture: ${family} property answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** Attributes both families share, every one set. */
const shared = async (ctx: ConformanceContext, family: string) => ({
  description: 'd',
  public_description: 'p',
  notify_emails: ['oncall@example.com'],
  color: '#FF0000',
  position: 1,
  show_uptime: true,
  show_uptime_last_days: 30,
  external_id: `ext-${tag()}`,
  backstage_id: 'default/component/x',
  pagerduty_id: 'P1',
  opsgenie_id: 'o1',
  opsgenie_team_id: 't1',
  cortex_id: 'c1',
  opslevel_id: 'l1',
  service_now_ci_sys_id: 's1',
  environment_ids: [await ctx.create.environment()],
  service_ids: [await make(ctx, 'services')],
  owner_group_ids: [await ctx.create.team()],
  owner_user_ids: [1],
  escalation_policy_id: 'ep1',
  chat_channels: [{ id: 'C1', name: 'ops' }],
  chat_aliases: [{ id: 'S1', name: 'sre' }],
  properties: [{ catalog_property_id: await property(ctx, family), value: 'v' }],
});

/** Services and functionalities (docs/decisions.md, Resources), and the bulk operations of both and of environments. */
export const catalogEntityOperations: ConformanceOperation[] = [
  ...crudRows(services, async (ctx) => ({
    ...(await shared(ctx, 'services')),
    github_repository_name: 'acme/api',
    github_repository_branch: 'main',
    gitlab_repository_name: 'acme/api',
    gitlab_repository_branch: 'main',
    kubernetes_deployment_name: 'prod/api',
    alert_urgency_id: 'u1',
    alerts_email_enabled: true,
    alert_broadcast_enabled: true,
    alert_broadcast_channel: { id: 'C2', name: 'alerts' },
    incident_broadcast_enabled: false,
    incident_broadcast_channel: null,
  })),
  ...crudRows(functionalities, (ctx) => shared(ctx, 'functionalities')),
  ...bulkRows(services),
  ...bulkRows(functionalities),
  ...bulkRows({ type: 'environments', one: 'Environment', many: 'Environments' }),
];
