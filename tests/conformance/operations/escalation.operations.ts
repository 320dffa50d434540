import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
const policy = (attributes: Record<string, unknown>) => doc('escalation_policies', attributes);
const path = (attributes: Record<string, unknown>) => doc('escalation_paths', attributes);
const level = (attributes: Record<string, unknown>) => doc('escalation_levels', attributes);
const unique = () => randomUUID().slice(0, 8);

async function created(ctx: ConformanceContext, at: string, body: unknown): Promise<string> {
  const res = await ctx.call('POST', at, { body });
  if (res.status !== 201) throw new Error(`fixture: POST ${at} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

const aPolicy = (ctx: ConformanceContext) => created(ctx, '/v1/escalation_policies', policy({ name: `Policy ${unique()}` }));

/** A policy and a second (non-default) path of it. */
async function aPath(ctx: ConformanceContext): Promise<{ policyId: string; pathId: string }> {
  const policyId = await aPolicy(ctx);
  return { policyId, pathId: await created(ctx, `/v1/escalation_policies/${policyId}/escalation_paths`, path({ name: 'Night' })) };
}

async function aLevel(ctx: ConformanceContext): Promise<string> {
  const policyId = await aPolicy(ctx);
  return created(ctx, `/v1/escalation_policies/${policyId}/escalation_levels`, level({ position: 1, notification_target_params: [] }));
}

/** Every attribute of a policy, its team a real one (on-call must know it). */
const everyPolicyAttribute = async (ctx: ConformanceContext) => ({
  name: `Primary ${unique()}`,
  description: 'Business hours first',
  repeat_count: 1,
  group_ids: [await ctx.create.team()],
  service_ids: [],
  business_hours: { time_zone: 'Europe/Berlin', days: ['M', 'T', 'W', 'R', 'F'], start_time: '09:00', end_time: '17:00' },
});

const everyPathAttribute = () => ({
  name: `Urgent ${unique()}`,
  notification_type: 'audible',
  path_type: 'escalation',
  after_deferral_behavior: null,
  after_deferral_path_id: null,
  default: false,
  match_mode: 'match-any-rule',
  position: 1,
  repeat: true,
  repeat_count: 2,
  initial_delay: 5,
  rules: [
    { rule_type: 'working_hour', within_working_hour: true },
    { rule_type: 'json_path', json_path: '$.labels.env', operator: 'is', value: 'production' },
    { rule_type: 'source', operator: 'is_one_of', values: ['datadog', 'manual'] },
  ],
  time_restriction_time_zone: 'Europe/Paris',
  time_restrictions: [{ start_day: 'monday', start_time: '09:00', end_day: 'friday', end_time: '17:00' }],
});

/** A level paging a team's members and a chat channel (stored; it pages nobody). */
const everyLevelAttribute = async (ctx: ConformanceContext) => ({
  delay: 10,
  position: 1,
  paging_strategy_configuration_strategy: 'default',
  paging_strategy_configuration_schedule_strategy: 'everyone',
  notification_target_params: [
    { type: 'team', id: await ctx.create.team(), team_members: 'all' },
    { type: 'slack_channel', id: 'C06Q2JK7RQW' },
  ],
});

/** Escalation policies, paths and levels (on-call, issue 24), each against the reference's operation. */
export const escalationOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/escalation_policies',
    variant: 'every attribute set',
    request: async (ctx) => ({ body: policy(await everyPolicyAttribute(ctx)) }),
    status: 201,
    schema: { reference: 'createEscalationPolicy', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/escalation_policies',
    variant: 'an unknown team',
    request: (ctx) => ({ body: policy({ name: `Bad ${unique()}`, group_ids: [ctx.unknownId] }) }),
    status: 422,
    schema: { reference: 'createEscalationPolicy', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/escalation_policies',
    variant: 'no credential',
    request: () => ({ body: policy({ name: 'x' }), token: null }),
    status: 401,
    schema: { reference: 'createEscalationPolicy', status: 401 },
  },
  { method: 'GET', path: '/v1/escalation_policies', status: 200, schema: { reference: 'listEscalationPolicies', status: 200 } },
  {
    method: 'GET',
    path: '/v1/escalation_policies',
    variant: 'filters, includes and a page',
    request: async (ctx) => {
      await aPolicy(ctx);
      return {
        query: `filter[search]=policy&filter[name][not_eq]=x&filter[team_ids][not_in]=${ctx.unknownId}&filter[created_at][gte]=2026-01-01T00:00:00Z&include=escalation_policy_paths,escalation_policy_levels,groups,services&page[number]=1&page[size]=2`,
      };
    },
    status: 200,
    schema: { reference: 'listEscalationPolicies', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/escalation_policies/{id}',
    variant: 'with its paths and levels included',
    request: async (ctx) => {
      const policyId = await aPolicy(ctx);
      await created(ctx, `/v1/escalation_policies/${policyId}/escalation_levels`, level(await everyLevelAttribute(ctx)));
      return { params: { id: policyId }, query: 'include=escalation_policy_paths,escalation_policy_levels' };
    },
    status: 200,
    schema: { reference: 'getEscalationPolicy', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/escalation_policies/{id}',
    request: async (ctx) => ({ params: { id: await aPolicy(ctx) }, body: policy({ repeat_count: 3, business_hours: null }) }),
    status: 200,
    schema: { reference: 'updateEscalationPolicy', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/escalation_policies/{id}',
    request: async (ctx) => ({ params: { id: await aPolicy(ctx) } }),
    status: 200,
    schema: { reference: 'deleteEscalationPolicy', status: 200 },
  },
  ...unknownIdRows('/v1/escalation_policies/{id}', [
    ['GET', 'getEscalationPolicy'],
    ['PUT', 'updateEscalationPolicy', policy({ name: 'x' })],
    ['DELETE', 'deleteEscalationPolicy'],
  ]),

  {
    method: 'POST',
    path: '/v1/escalation_policies/{escalation_policy_id}/escalation_paths',
    variant: 'every attribute set',
    request: async (ctx) => ({ params: { escalation_policy_id: await aPolicy(ctx) }, body: path(everyPathAttribute()) }),
    status: 201,
    schema: { reference: 'createEscalationPath', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/escalation_policies/{escalation_policy_id}/escalation_paths',
    variant: 'a deferral path that says nothing of what follows',
    request: async (ctx) => ({
      params: { escalation_policy_id: await aPolicy(ctx) },
      body: path({ name: 'Later', path_type: 'deferral' }),
    }),
    status: 422,
    schema: { reference: 'createEscalationPath', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/escalation_policies/{escalation_policy_id}/escalation_paths',
    variant: 'no credential',
    request: (ctx) => ({ params: { escalation_policy_id: ctx.unknownId }, body: path({ name: 'x' }), token: null }),
    status: 401,
    schema: { reference: 'createEscalationPath', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/escalation_policies/{escalation_policy_id}/escalation_paths',
    variant: 'filtered by path_type, levels included',
    request: async (ctx) => ({
      params: { escalation_policy_id: (await aPath(ctx)).policyId },
      query: 'filter[path_type]=escalation&include=escalation_policy_levels&page[number]=1&page[size]=5',
    }),
    status: 200,
    schema: { reference: 'listEscalationPaths', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/escalation_paths/{id}',
    request: async (ctx) => ({ params: { id: (await aPath(ctx)).pathId }, query: 'include=escalation_policy_levels' }),
    status: 200,
    schema: { reference: 'getEscalationPath', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/escalation_paths/{id}',
    variant: 'made the default',
    request: async (ctx) => ({ params: { id: (await aPath(ctx)).pathId }, body: path({ default: true, notification_type: 'quiet' }) }),
    status: 200,
    schema: { reference: 'updateEscalationPath', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/escalation_paths/{id}',
    request: async (ctx) => ({ params: { id: (await aPath(ctx)).pathId } }),
    status: 200,
    schema: { reference: 'deleteEscalationPath', status: 200 },
  },
  ...unknownIdRows('/v1/escalation_paths/{id}', [
    ['GET', 'getEscalationPath'],
    ['PUT', 'updateEscalationPath', path({ name: 'x' })],
    ['DELETE', 'deleteEscalationPath'],
  ]),

  {
    method: 'POST',
    path: '/v1/escalation_policies/{escalation_policy_id}/escalation_levels',
    variant: 'every attribute set, on the default path',
    request: async (ctx) => ({ params: { escalation_policy_id: await aPolicy(ctx) }, body: level(await everyLevelAttribute(ctx)) }),
    status: 201,
    schema: { reference: 'createEscalationLevel', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/escalation_policies/{escalation_policy_id}/escalation_levels',
    variant: 'an unknown schedule',
    request: async (ctx) => ({
      params: { escalation_policy_id: await aPolicy(ctx) },
      body: level({ position: 1, notification_target_params: [{ type: 'schedule', id: ctx.unknownId }] }),
    }),
    status: 422,
    schema: { reference: 'createEscalationLevel', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/escalation_policies/{escalation_policy_id}/escalation_levels',
    variant: 'no credential',
    request: (ctx) => ({
      params: { escalation_policy_id: ctx.unknownId },
      body: level({ position: 1, notification_target_params: [] }),
      token: null,
    }),
    status: 401,
    schema: { reference: 'createEscalationLevel', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/escalation_policies/{escalation_policy_id}/escalation_levels',
    request: async (ctx) => {
      const policyId = await aPolicy(ctx);
      await created(ctx, `/v1/escalation_policies/${policyId}/escalation_levels`, level(await everyLevelAttribute(ctx)));
      return { params: { escalation_policy_id: policyId }, query: 'page[number]=1&page[size]=5' };
    },
    status: 200,
    schema: { reference: 'listEscalationLevels', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/escalation_paths/{escalation_policy_path_id}/escalation_levels',
    request: async (ctx) => ({
      params: { escalation_policy_path_id: (await aPath(ctx)).pathId },
      body: level(await everyLevelAttribute(ctx)),
    }),
    status: 201,
    schema: { reference: 'createEscalationLevelPaths', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/escalation_paths/{escalation_policy_path_id}/escalation_levels',
    variant: 'a delay over a week',
    request: async (ctx) => ({
      params: { escalation_policy_path_id: (await aPath(ctx)).pathId },
      body: level({ position: 1, delay: 10_081, notification_target_params: [] }),
    }),
    status: 422,
    schema: { reference: 'createEscalationLevelPaths', status: 422 },
  },
  {
    method: 'GET',
    path: '/v1/escalation_paths/{escalation_policy_path_id}/escalation_levels',
    request: async (ctx) => {
      const { pathId } = await aPath(ctx);
      await created(ctx, `/v1/escalation_paths/${pathId}/escalation_levels`, level({ position: 1, notification_target_params: [] }));
      return { params: { escalation_policy_path_id: pathId } };
    },
    status: 200,
    schema: { reference: 'listEscalationLevelsPaths', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/escalation_levels/{id}',
    request: async (ctx) => ({ params: { id: await aLevel(ctx) } }),
    status: 200,
    schema: { reference: 'getEscalationLevel', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/escalation_levels/{id}',
    request: async (ctx) => ({
      params: { id: await aLevel(ctx) },
      body: level({ delay: 30, paging_strategy_configuration_strategy: 'random' }),
    }),
    status: 200,
    schema: { reference: 'updateEscalationLevel', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/escalation_levels/{id}',
    request: async (ctx) => ({ params: { id: await aLevel(ctx) } }),
    status: 200,
    schema: { reference: 'deleteEscalationLevel', status: 200 },
  },
  ...unknownIdRows('/v1/escalation_levels/{id}', [
    ['GET', 'getEscalationLevel'],
    ['PUT', 'updateEscalationLevel', level({ delay: 1 })],
    ['DELETE', 'deleteEscalationLevel'],
  ]),
];
