import { z } from 'zod';
import { NotFoundError, type ValidationIssue } from '@firewatch/errors';
import { defineResource, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { timeZone } from '../schedules/schedule-times.schemas.js';
import { MAX_DELAY_MINUTES, MAX_PATH_RULES, pathRule, repeatCount, timeRestrictions, type PathRule } from './escalation.fields.js';
import { deferralIssues, pathRuleIssues } from './escalation.rules.js';

/** Most paths one policy holds, its default path included. */
export const MAX_PATHS_PER_POLICY = 20;
const LEVEL_IDS = 'level_ids';

const writable = {
  name: z.string().trim().min(1).max(255),
  notification_type: z.enum(['audible', 'quiet']),
  path_type: z.enum(['escalation', 'deferral']),
  after_deferral_behavior: z.enum(['re_evaluate', 'execute_path']).nullable(),
  after_deferral_path_id: z
    .uuid()
    .transform((id) => id.toLowerCase())
    .nullable(),
  default: z.boolean().nullable(),
  match_mode: z.enum(['match-all-rules', 'match-any-rule']),
  position: z.number().int().min(0).max(1_000),
  repeat: z.boolean().nullable(),
  repeat_count: repeatCount.nullable(),
  initial_delay: z.number().int().min(0).max(MAX_DELAY_MINUTES),
  rules: z.array(pathRule).max(MAX_PATH_RULES),
  time_restriction_time_zone: timeZone.nullable(),
  time_restrictions: timeRestrictions,
};

/**
 * Escalation paths (issue 24): the ways through a policy. An alert follows the first path
 * by position whose rules and time restrictions admit it, else the policy's default path
 * (the paging engine decides; this declaration keeps the paths sound). A policy has
 * exactly one default path: making another one default unsets the old one in the same
 * write, and the default path can be neither unset nor deleted. Deleting a path deletes
 * its levels. docs/paging.md.
 */
export const escalationPaths = defineResource<OnCallResourceDeps>({
  type: 'escalation_paths',
  path: '/v1/escalation_paths',
  collections: [{ path: '/v1/escalation_policies/{escalation_policy_id}/escalation_paths' }],
  parent: { resource: 'escalation_policies', param: 'escalation_policy_id', column: 'escalation_policy_id' },
  table: 'escalation_paths',
  event: 'escalation_path',
  permission: { scope: 'oc.escalation_policies', side: 'oc' },
  summary: { singular: 'escalation path', plural: 'escalation paths' },
  create: z.strictObject(writable).partial().required({ name: true }),
  update: z.strictObject(writable).partial(),
  attributes: [
    'name',
    'default',
    'notification_type',
    'path_type',
    'escalation_policy_id',
    'after_deferral_behavior',
    'after_deferral_path_id',
    'match_mode',
    'position',
    'repeat',
    'repeat_count',
    'initial_delay',
    'rules',
    'time_restriction_time_zone',
    'time_restrictions',
  ],
  computed: { default: (row) => row.is_default === true },
  attributeSchemas: {
    default: { type: 'boolean', description: "Whether this is the policy's default path (exactly one is)." },
    escalation_policy_id: { type: 'string', format: 'uuid' },
  },
  jsonColumns: ['rules', 'time_restrictions'],
  filters: { path_type: 'string' },
  sorts: ['position', 'name', 'created_at', 'updated_at'],
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  position: { per: 'escalation_policy_id' },
  limit: { max: MAX_PATHS_PER_POLICY, per: 'escalation_policy_id', detail: 'An escalation policy has at most {max} paths.' },
  updateMethods: ['put'],
  // Two writes making different paths default at once: the partial unique index keeps one, the other is a 409.
  unique: {
    escalation_paths_one_default: {
      pointer: '/data/attributes/default',
      detail: 'Another path of this policy became the default at the same time; read the paths and try again.',
    },
  },
  cascades: [{ resource: 'escalation_levels', column: 'escalation_policy_path_id' }],
  relationships: {
    escalation_policy_levels: { type: 'escalation_levels', column: LEVEL_IDS, many: true, resource: 'escalation_levels' },
  },
  hooks: {
    async expand(rows, ctx) {
      const levels = await ctx.deps.escalation.levelIds(
        ctx.tx,
        'escalation_policy_path_id',
        rows.map((r) => ({ id: String(r.id), team_id: Number(r.team_id) })),
      );
      for (const row of rows) row[LEVEL_IDS] = levels.get(String(row.id)) ?? [];
    },
    // `default` is the column is_default; a null default, repeat or repeat_count changes nothing.
    prepare(attributes) {
      const { default: isDefault, ...rest } = attributes;
      const out: Row = { ...rest, ...(isDefault === undefined || isDefault === null ? {} : { is_default: isDefault }) };
      for (const key of ['repeat', 'repeat_count'] as const) if (out[key] === null) delete out[key];
      return out;
    },
    // A path created while its policy is deleted is a 404, not a foreign key's 500: the policy is held until the path is written.
    async defaults(attributes, ctx) {
      const policyId = String(ctx.parent?.id);
      if (!(await ctx.deps.escalation.holdPolicy(ctx.tx, ctx.principal.team_id, policyId)))
        throw new NotFoundError(`No escalation policy with id "${policyId}".`);
      return {
        notification_type: 'audible',
        path_type: 'escalation',
        after_deferral_behavior: null,
        after_deferral_path_id: null,
        is_default: false,
        match_mode: 'match-all-rules',
        repeat: false,
        repeat_count: 0,
        initial_delay: 0,
        rules: [],
        time_restriction_time_zone: null,
        time_restrictions: [],
        ...attributes,
      };
    },
    async validate(attributes, ctx) {
      const merged: Row = { ...ctx.existing, escalation_policy_id: ctx.existing?.escalation_policy_id ?? ctx.parent?.id, ...attributes };
      const issues: ValidationIssue[] = [];
      if (ctx.existing?.is_default && attributes.is_default === false)
        issues.push({
          pointer: '/data/attributes/default',
          code: 'invalid',
          detail: 'A policy always has a default path: make another path the default instead.',
        });
      if (ctx.existing && attributes.path_type !== undefined && attributes.path_type !== ctx.existing.path_type)
        issues.push({ pointer: '/data/attributes/path_type', code: 'invalid', detail: 'A path keeps the path_type it was created with.' });
      return [
        ...issues,
        ...(await deferralIssues(merged, ctx)),
        ...(attributes.rules ? await pathRuleIssues(ctx, attributes.rules as PathRule[]) : []),
      ];
    },
    // After every check: the old default stops being one just before this path's row is written.
    async toColumns(attributes, ctx) {
      if (attributes.is_default === true && !ctx.existing?.is_default) {
        const policyId = String(ctx.existing?.escalation_policy_id ?? ctx.parent?.id);
        const unset = await ctx.deps.escalation.unsetDefault(
          ctx.tx,
          ctx.principal.team_id,
          policyId,
          ctx.existing ? String(ctx.existing.id) : null,
        );
        for (const row of unset) await ctx.announce('escalation_paths', 'updated', row);
      }
      return attributes;
    },
    // Neither the default path nor one a deferral path executes may go: nothing would page, or a deferral would lead nowhere.
    async beforeRemove(ctx) {
      const path = ctx.existing as Row;
      if (path.is_default)
        return [
          {
            pointer: '/data',
            code: 'default_path',
            detail: "A policy's default path cannot be deleted: make another path the default first, or delete the policy.",
          },
        ];
      const deferrals = await ctx.deps.escalation.deferralsTo(
        ctx.tx,
        ctx.principal.team_id,
        String(path.escalation_policy_id),
        String(path.id),
      );
      if (!deferrals.length) return [];
      return [
        {
          pointer: '/data',
          code: 'deferral_target',
          detail: `Deferral path ${deferrals.join(', ')} executes this path after it: point it elsewhere first, or delete it.`,
        },
      ];
    },
  },
});
