import { z } from 'zod';
import { NotFoundError, ValidationError, type ValidationIssue } from '@firewatch/errors';
import { defineResource, type HookContext, type ResourceDefinition, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import type { LevelTarget } from '../paging/paging.ports.js';
import { withLevel } from './escalation-cycles.js';
import { levelTargets, MAX_DELAY_MINUTES } from './escalation.fields.js';
import { cycleIssues, levelTargetIssues } from './escalation.rules.js';

/** Most levels one path holds. */
export const MAX_LEVELS_PER_PATH = 20;

const writable = {
  delay: z.number().int().min(0).max(MAX_DELAY_MINUTES),
  position: z.number().int().min(0).max(1_000),
  paging_strategy_configuration_strategy: z.enum(['default', 'random', 'cycle', 'alert']).nullable(),
  paging_strategy_configuration_schedule_strategy: z.enum(['on_call_only', 'everyone']).nullable(),
  escalation_policy_path_id: z
    .uuid()
    .transform((id) => id.toLowerCase())
    .nullable(),
  notification_target_params: levelTargets,
};

type Ctx = HookContext<OnCallResourceDeps>;
const PATH_POINTER = '/data/attributes/escalation_policy_path_id';

const noPath = (policyId: string, pathId: string): ValidationIssue => ({
  pointer: PATH_POINTER,
  code: 'invalid_reference',
  detail: `No path with id "${pathId}" in escalation policy ${policyId}.`,
});

/**
 * Where a created level goes: under a path, that path and its policy; under a policy, the
 * path named (one of the policy's) or else the policy's default path. Both are held until
 * the level is written (`holdPath`): a policy or path deleted meanwhile is a 404, not a
 * foreign key's 500.
 */
async function placement(attributes: Row, ctx: Ctx): Promise<Row> {
  const parent = ctx.parent as Row;
  const sent = attributes.escalation_policy_path_id as string | null | undefined;
  const underPath = 'is_default' in parent;
  if (underPath && sent && sent !== parent.id)
    throw new ValidationError([
      {
        pointer: PATH_POINTER,
        code: 'invalid',
        detail: `A level created under path ${String(parent.id)} belongs to it, not to "${sent}".`,
      },
    ]);
  const policyId = String(underPath ? parent.escalation_policy_id : parent.id);
  const pathId = await ctx.deps.escalation.holdPath(
    ctx.tx,
    ctx.principal.team_id,
    policyId,
    underPath ? String(parent.id) : (sent ?? null),
  );
  if (!pathId) {
    if (!underPath && sent) throw new ValidationError([noPath(policyId, sent)]);
    throw new NotFoundError(`No escalation ${underPath ? 'path' : 'policy'} with id "${String(parent.id)}".`);
  }
  return { ...attributes, escalation_policy_id: policyId, escalation_policy_path_id: pathId };
}

/** A 422 unless a level may move to `pathId`: a path of its policy with room for one more level. */
async function moveIssues(ctx: Ctx, policyId: string, pathId: string): Promise<ValidationIssue[]> {
  const held = await ctx.deps.escalation.levelsOn(ctx.tx, ctx.principal.team_id, policyId, pathId);
  if (held === undefined) return [noPath(policyId, pathId)];
  if (held < MAX_LEVELS_PER_PATH) return [];
  return [{ pointer: PATH_POINTER, code: 'limit_reached', detail: `An escalation path has at most ${MAX_LEVELS_PER_PATH} levels.` }];
}

/**
 * What both declarations of escalation levels share: one table, read and written the same
 * way whether the collection is a policy's or a path's.
 */
const levelBase = {
  type: 'escalation_levels',
  path: '/v1/escalation_levels',
  table: 'escalation_levels',
  event: 'escalation_level',
  permission: { scope: 'oc.escalation_policies', side: 'oc' },
  summary: { singular: 'escalation level', plural: 'escalation levels' },
  create: z.strictObject(writable).partial().required({ notification_target_params: true }),
  update: z.strictObject(writable).partial(),
  attributes: [
    'escalation_policy_id',
    'escalation_policy_path_id',
    'paging_strategy_configuration_strategy',
    'paging_strategy_configuration_schedule_strategy',
    'delay',
    'position',
    'notification_target_params',
  ],
  attributeSchemas: { escalation_policy_id: { type: 'string', format: 'uuid' } },
  jsonColumns: ['notification_target_params'],
  sorts: ['position', 'created_at', 'updated_at'],
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  position: { per: 'escalation_policy_path_id' },
  limit: { max: MAX_LEVELS_PER_PATH, per: 'escalation_policy_path_id', detail: 'An escalation path has at most {max} levels.' },
  updateMethods: ['put'],
  relationships: {
    escalation_policy: { type: 'escalation_policies', column: 'escalation_policy_id', resource: 'escalation_policies' },
    escalation_policy_path: { type: 'escalation_paths', column: 'escalation_policy_path_id', resource: 'escalation_paths' },
  },
  hooks: {
    // A null strategy is the default one (the reference's nullable enums with a default); an update's null path keeps the path.
    prepare(attributes, ctx) {
      const out: Row = { ...attributes };
      if (out.paging_strategy_configuration_strategy === null) out.paging_strategy_configuration_strategy = 'default';
      if (out.paging_strategy_configuration_schedule_strategy === null)
        out.paging_strategy_configuration_schedule_strategy = 'on_call_only';
      if (ctx.existing && out.escalation_policy_path_id === null) delete out.escalation_policy_path_id;
      return out;
    },
    defaults: async (attributes, ctx) =>
      placement(
        {
          delay: 0,
          paging_strategy_configuration_strategy: 'default',
          paging_strategy_configuration_schedule_strategy: 'on_call_only',
          ...attributes,
        },
        ctx,
      ),
    async validate(attributes, ctx) {
      const moved = ctx.existing ? (attributes.escalation_policy_path_id as string | undefined) : undefined;
      if (moved && moved !== ctx.existing?.escalation_policy_path_id) {
        const issues = await moveIssues(ctx, String(ctx.existing?.escalation_policy_id), moved);
        if (issues.length) return issues;
      }
      const targets = attributes.notification_target_params as LevelTarget[] | undefined;
      if (!targets) return [];
      const kept = (ctx.existing?.notification_target_params as LevelTarget[] | undefined) ?? [];
      const targetIssues = await levelTargetIssues(ctx, targets, kept);
      if (targetIssues.length) return targetIssues;
      const policyId = String(attributes.escalation_policy_id ?? ctx.existing?.escalation_policy_id);
      const graph = withLevel(await ctx.deps.escalation.graph(ctx.tx, ctx.principal.team_id), {
        id: ctx.existing ? String(ctx.existing.id) : undefined,
        escalation_policy_id: policyId,
        notification_target_params: targets,
      });
      return cycleIssues(graph, policyId, '/data/attributes/notification_target_params');
    },
  },
} satisfies Partial<ResourceDefinition<OnCallResourceDeps>>;

/**
 * Escalation levels (issue 24): the steps of a path, by position, each paging its targets
 * (users, schedules, teams, services; chat channels are stored but page nobody) `delay`
 * minutes before the next. Served under a policy (a level created without a path goes to
 * the policy's default path) and at `/v1/escalation_levels/{id}`. docs/paging.md.
 */
export const escalationLevels = defineResource<OnCallResourceDeps>({
  ...levelBase,
  collections: [{ path: '/v1/escalation_policies/{escalation_policy_id}/escalation_levels' }],
  parent: { resource: 'escalation_policies', param: 'escalation_policy_id', column: 'escalation_policy_id' },
});

/** The same levels listed and created under their path (`/v1/escalation_paths/{escalation_policy_path_id}/escalation_levels`). */
export const escalationPathLevels = defineResource<OnCallResourceDeps>({
  ...levelBase,
  name: 'escalation_path_levels',
  collections: [{ path: '/v1/escalation_paths/{escalation_policy_path_id}/escalation_levels' }],
  parent: { resource: 'escalation_paths', param: 'escalation_policy_path_id', column: 'escalation_policy_path_id' },
  operations: ['list', 'create'],
});
