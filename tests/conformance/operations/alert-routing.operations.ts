import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;
const route = (attributes: Record<string, unknown>) => ({ data: { type: 'alert_routes', attributes } });
const legacyRule = (attributes: Record<string, unknown>) => ({ data: { type: 'alert_routing_rules', attributes } });
const unique = () => randomUUID().slice(0, 8);

async function created(ctx: ConformanceContext, path: string, body: unknown): Promise<string> {
  const res = await ctx.call('POST', path, { body });
  if (res.status !== 201) throw new Error(`fixture: POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

const alertSource = (ctx: ConformanceContext) =>
  created(ctx, '/v1/alert_sources', {
    data: { type: 'alert_sources', attributes: { name: `Routed ${unique()}`, source_type: 'generic_webhook' } },
  });

const urgency = (ctx: ConformanceContext) =>
  created(ctx, '/v1/alert_urgencies', { data: { type: 'alert_urgencies', attributes: { name: `Urgency ${unique()}`, description: 'd' } } });

/** Every attribute: two rules (one of each condition type the reference names), a fallback, a team as destination and owner. */
async function everyRouteAttribute(ctx: ConformanceContext): Promise<Record<string, unknown>> {
  const team = await ctx.create.team();
  const to = [{ target_type: 'Group', target_id: team }];
  return {
    name: `Databases ${unique()}`,
    enabled: true,
    alerts_source_ids: [await alertSource(ctx)],
    owning_team_ids: [team],
    rules: [
      {
        name: 'Disk',
        position: 1,
        destinations: to,
        condition_groups: [
          {
            position: 0,
            conditions: [
              {
                property_field_type: 'attribute',
                property_field_name: 'summary',
                property_field_condition_type: 'contains',
                property_field_value: 'disk',
              },
              {
                property_field_type: 'payload',
                property_field_name: '$.labels.severity',
                property_field_condition_type: 'matches_regex',
                property_field_values: ['^(critical|high)$'],
              },
            ],
          },
          {
            position: 1,
            conditions: [
              {
                property_field_type: 'attribute',
                property_field_name: 'alert_urgency',
                property_field_condition_type: 'is_one_of',
                alert_urgency_ids: [await urgency(ctx)],
              },
            ],
          },
        ],
      },
      { name: 'Everything else', fallback_rule: true, destinations: to, condition_groups: [] },
    ],
  };
}

async function everyLegacyAttribute(ctx: ConformanceContext): Promise<Record<string, unknown>> {
  const team = await ctx.create.team();
  return {
    name: `Legacy ${unique()}`,
    enabled: true,
    alerts_source_id: await alertSource(ctx),
    position: 3,
    condition_type: 'any',
    owning_team_ids: [team],
    conditions: [
      {
        property_field_type: 'attribute',
        property_field_name: 'description',
        property_field_condition_type: 'starts_with',
        property_field_value: 'db',
      },
      {
        property_field_type: 'payload',
        property_field_name: '$.host',
        property_field_condition_type: 'is_one_of',
        property_field_values: ['db-1'],
      },
      {
        property_field_type: 'attribute',
        property_field_name: 'alert_urgency',
        property_field_condition_type: 'is_one_of',
        property_field_values: [await urgency(ctx)],
      },
    ],
    destination: { target_type: 'Group', target_id: team },
  };
}

const anAlertRoute = async (ctx: ConformanceContext) => created(ctx, '/v1/alert_routes', route(await everyRouteAttribute(ctx)));
const anAlertRoutingRule = async (ctx: ConformanceContext) =>
  created(ctx, '/v1/alert_routing_rules', legacyRule(await everyLegacyAttribute(ctx)));

/** Alert routes and the legacy alert routing rules (on-call, issue 24), each against the reference's operation. */
export const alertRoutingOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/alert_routes',
    variant: 'every attribute, rules with condition groups and a fallback rule',
    request: async (ctx) => ({ body: route(await everyRouteAttribute(ctx)) }),
    status: 201,
    schema: { reference: 'createAlertRoute', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/alert_routes',
    variant: 'a destination the team does not have',
    request: async (ctx) => ({
      body: route({
        name: 'x',
        alerts_source_ids: [await alertSource(ctx)],
        rules: [{ name: 'r', destinations: [{ target_type: 'Service', target_id: randomUUID() }], condition_groups: [] }],
      }),
    }),
    status: 422,
    schema: { reference: 'createAlertRoute', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/alert_routes',
    variant: 'no credential',
    request: () => ({ body: route({ name: 'x', alerts_source_ids: [] }), token: null }),
    status: 401,
    schema: { reference: 'createAlertRoute', status: 401 },
  },
  { method: 'GET', path: '/v1/alert_routes', status: 200, schema: { reference: 'listAlertRoutes', status: 200 } },
  {
    method: 'GET',
    path: '/v1/alert_routes',
    variant: 'filters, sort and a page',
    request: () => ({ query: 'filter[search]=data&filter[name]=x&filter[slug]=x&sort=-created_at&page[number]=1&page[size]=2' }),
    status: 200,
    schema: { reference: 'listAlertRoutes', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/alert_routes/{id}',
    request: async (ctx) => ({ params: { id: await anAlertRoute(ctx) } }),
    status: 200,
    schema: { reference: 'getAlertRoute', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/alert_routes/{id}',
    variant: "the reference's show_nested_ids",
    request: async (ctx) => ({ params: { id: await anAlertRoute(ctx) }, query: 'show_nested_ids=true' }),
    status: 200,
    schema: { reference: 'getAlertRoute', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/alert_routes/{id}',
    request: async (ctx) => ({ params: { id: await anAlertRoute(ctx) }, body: route({ name: `Renamed ${unique()}`, enabled: false }) }),
    status: 200,
    schema: { reference: 'updateAlertRoute', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/alert_routes/{id}',
    variant: 'two fallback rules',
    request: async (ctx) => ({
      params: { id: await anAlertRoute(ctx) },
      body: route({
        rules: [
          { name: 'a', fallback_rule: true, destinations: [], condition_groups: [] },
          { name: 'b', fallback_rule: true, destinations: [], condition_groups: [] },
        ],
      }),
    }),
    status: 422,
    schema: { reference: 'updateAlertRoute', status: 422 },
  },
  {
    method: 'PATCH',
    path: '/v1/alert_routes/{id}',
    variant: 'rules merged by id, one dropped with _destroy',
    request: async (ctx) => {
      const id = await anAlertRoute(ctx);
      const rules = (await ctx.call('GET', `/v1/alert_routes/${id}`)).body.data.attributes.rules as { id: string }[];
      return { params: { id }, body: route({ rules: [rules[0], { id: rules[1].id, _destroy: true }] }) };
    },
    status: 200,
    schema: { reference: 'patchAlertRoute', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/alert_routes/{id}',
    variant: 'a condition type off the reference list',
    request: async (ctx) => ({
      params: { id: await anAlertRoute(ctx) },
      body: route({
        rules: [
          {
            name: 'r',
            destinations: [],
            condition_groups: [
              {
                conditions: [{ property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'is_set' }],
              },
            ],
          },
        ],
      }),
    }),
    status: 422,
    schema: { reference: 'patchAlertRoute', status: 422 },
  },
  {
    method: 'DELETE',
    path: '/v1/alert_routes/{id}',
    request: async (ctx) => ({ params: { id: await anAlertRoute(ctx) } }),
    status: 200,
    schema: { reference: 'deleteAlertRoute', status: 200 },
  },
  ...unknownIdRows('/v1/alert_routes/{id}', [
    ['GET', 'getAlertRoute'],
    ['PUT', 'updateAlertRoute', route({ name: 'x' })],
    ['PATCH', 'patchAlertRoute', route({ name: 'x' })],
    ['DELETE', 'deleteAlertRoute'],
  ]),

  {
    method: 'POST',
    path: '/v1/alert_routing_rules',
    variant: 'every attribute, a condition of each kind',
    request: async (ctx) => ({ body: legacyRule(await everyLegacyAttribute(ctx)) }),
    status: 201,
    schema: { reference: 'createAlertRoutingRule', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/alert_routing_rules',
    variant: 'an alert source of no team',
    request: (ctx) => ({
      body: legacyRule({ name: 'x', alerts_source_id: ctx.unknownId, destination: { target_type: 'Service', target_id: randomUUID() } }),
    }),
    status: 422,
    schema: { reference: 'createAlertRoutingRule', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/alert_routing_rules',
    variant: 'no credential',
    request: () => ({ body: legacyRule({ name: 'x' }), token: null }),
    status: 401,
    schema: { reference: 'createAlertRoutingRule', status: 401 },
  },
  { method: 'GET', path: '/v1/alert_routing_rules', status: 200, schema: { reference: 'listAlertRoutingRules', status: 200 } },
  {
    method: 'GET',
    path: '/v1/alert_routing_rules',
    variant: 'filters, sort and a page',
    request: () => ({
      query:
        'filter[search]=legacy&filter[name]=x&filter[slug]=x&filter[created_at][gte]=2026-01-01T00:00:00Z&sort=position&page[number]=1&page[size]=2',
    }),
    status: 200,
    schema: { reference: 'listAlertRoutingRules', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/alert_routing_rules/{id}',
    request: async (ctx) => ({ params: { id: await anAlertRoutingRule(ctx) } }),
    status: 200,
    schema: { reference: 'getAlertRoutingRule', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/alert_routing_rules/{id}',
    request: async (ctx) => ({
      params: { id: await anAlertRoutingRule(ctx) },
      body: legacyRule({ condition_type: 'all', position: 0, conditions: [] }),
    }),
    status: 200,
    schema: { reference: 'updateAlertRoutingRule', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/alert_routing_rules/{id}',
    variant: 'an attribute name the reference does not list',
    request: async (ctx) => ({
      params: { id: await anAlertRoutingRule(ctx) },
      body: legacyRule({
        conditions: [
          {
            property_field_type: 'attribute',
            property_field_name: 'colour',
            property_field_condition_type: 'contains',
            property_field_value: 'x',
          },
        ],
      }),
    }),
    status: 422,
    schema: errorDocument,
  },
  {
    method: 'DELETE',
    path: '/v1/alert_routing_rules/{id}',
    request: async (ctx) => ({ params: { id: await anAlertRoutingRule(ctx) } }),
    status: 200,
    schema: { reference: 'deleteAlertRoutingRule', status: 200 },
  },
  ...unknownIdRows('/v1/alert_routing_rules/{id}', [
    ['GET', 'getAlertRoutingRule'],
    ['PUT', 'updateAlertRoutingRule', legacyRule({ name: 'x' })],
    ['DELETE', 'deleteAlertRoutingRule'],
  ]),
];
