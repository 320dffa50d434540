import { z } from 'zod';
import { defineResource, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { withNames } from './escalation-cycles.js';
import { businessHours, repeatCount, uuidList } from './escalation.fields.js';
import { cycleIssues, knownTargetIssues } from './escalation.rules.js';

/** Most escalation policies a team holds. */
export const MAX_ESCALATION_POLICIES = 500;

/** The row member (no response attribute) holding the policy's paths, written once: its default path on create. */
const PATHS = 'paths';
const LEVEL_IDS = 'level_ids';
const PATH_IDS = 'path_ids';

const writable = {
  name: z.string().trim().min(1).max(255),
  description: z.string().max(10_000).nullable(),
  repeat_count: repeatCount,
  group_ids: uuidList,
  service_ids: uuidList,
  business_hours: businessHours,
};

const ids = (v: unknown) => (v as string[] | undefined) ?? [];

/**
 * Escalation policies (issue 24): who is paged, level after level, when an alert reaches
 * a policy directly, or a team (`group_ids`) or service (`service_ids`) it names. Each
 * policy is created with its default path ("Default"); levels live on paths. Deleting a
 * policy deletes its paths and their levels (each announced). docs/paging.md.
 */
export const escalationPolicies = defineResource<OnCallResourceDeps>({
  type: 'escalation_policies',
  path: '/v1/escalation_policies',
  table: 'escalation_policies',
  event: 'escalation_policy',
  permission: { scope: 'oc.escalation_policies', side: 'oc' },
  summary: { singular: 'escalation policy', plural: 'escalation policies' },
  create: z.strictObject(writable).partial().required({ name: true }),
  update: z.strictObject(writable).partial(),
  attributes: [
    'name',
    'description',
    'repeat_count',
    'created_by_user_id',
    'last_updated_by_user_id',
    'group_ids',
    'service_ids',
    'business_hours',
  ],
  attributeSchemas: {
    created_by_user_id: {
      type: ['integer', 'null'],
      description: 'The user whose credential created the policy; null for a key of no user.',
    },
    last_updated_by_user_id: { type: ['integer', 'null'], description: 'The user whose credential last changed the policy.' },
  },
  jsonColumns: ['business_hours'],
  // filter[team_ids]: policies naming any (or none) of the teams; group_ids is a uuid[] column.
  filters: {
    search: { kind: 'search', columns: ['name'] },
    name: 'string',
    team_ids: { kind: 'uuid_list', column: 'group_ids', array: true },
    created_at: 'date',
  },
  sorts: ['name', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  limit: { max: MAX_ESCALATION_POLICIES, detail: 'A team has at most {max} escalation policies.' },
  updateMethods: ['put'],
  unique: {
    escalation_policies_team_id_name_unique: {
      pointer: '/data/attributes/name',
      detail: 'An escalation policy with this name already exists.',
    },
  },
  children: {
    [PATHS]: {
      table: 'escalation_paths',
      key: 'escalation_policy_id',
      mode: 'replace',
      columns: ['team_id', 'name', 'is_default'],
      announce: 'escalation_paths',
    },
  },
  cascades: [{ resource: 'escalation_paths', column: 'escalation_policy_id' }],
  relationships: {
    escalation_policy_paths: { type: 'escalation_paths', column: PATH_IDS, many: true, resource: 'escalation_paths' },
    escalation_policy_levels: { type: 'escalation_levels', column: LEVEL_IDS, many: true, resource: 'escalation_levels' },
  },
  // Teams and services are auth's and incident-config's records: on-call serves neither (docs/decisions.md, Defaults).
  includes: { groups: async () => [], services: async () => [] },
  hooks: {
    async expand(rows, ctx) {
      const levels = await ctx.deps.escalation.levelIds(
        ctx.tx,
        'escalation_policy_id',
        rows.map((r) => ({ id: String(r.id), team_id: Number(r.team_id) })),
      );
      for (const row of rows) {
        row[PATH_IDS] = ((row[PATHS] as Row[] | undefined) ?? []).map((p) => String(p.id));
        row[LEVEL_IDS] = levels.get(String(row.id)) ?? [];
      }
    },
    defaults: (attributes, ctx) => ({
      description: null,
      repeat_count: 0,
      group_ids: [],
      service_ids: [],
      business_hours: null,
      ...attributes,
      [PATHS]: [{ team_id: ctx.principal.team_id, name: 'Default', is_default: true }],
    }),
    async validate(attributes, ctx) {
      // The ids the policy did not name yet, each at its place as sent: one it kept is not judged again (a team deleted since stays named).
      const fresh = (attribute: string) =>
        ids(attributes[attribute])
          .map((id, i) => ({ id, pointer: `/data/attributes/${attribute}/${i}` }))
          .filter((e) => !ids(ctx.existing?.[attribute]).includes(e.id));
      const issues = [
        ...(await knownTargetIssues(ctx, fresh('group_ids'), 'Group')),
        ...(await knownTargetIssues(ctx, fresh('service_ids'), 'Service')),
      ];
      // Only an existing policy can have levels leading back to it; only a team or service newly named can close a loop.
      const existing = ctx.existing;
      if (issues.length || !existing || (!fresh('group_ids').length && !fresh('service_ids').length)) return issues;
      const policyId = String(existing.id);
      const graph = await ctx.deps.escalation.graph(ctx.tx, ctx.principal.team_id);
      const groupIds = attributes.group_ids === undefined ? undefined : ids(attributes.group_ids);
      const serviceIds = attributes.service_ids === undefined ? undefined : ids(attributes.service_ids);
      // The teams first, so that a loop they close alone is told at group_ids.
      const byGroups = cycleIssues(withNames(graph, policyId, { group_ids: groupIds }), policyId, '/data/attributes/group_ids');
      if (byGroups.length) return byGroups;
      return cycleIssues(
        withNames(graph, policyId, { group_ids: groupIds, service_ids: serviceIds }),
        policyId,
        '/data/attributes/service_ids',
      );
    },
    // Each team and service once, in the order sent: a repeated id names nothing more (after validate, whose pointers are as sent).
    toColumns: (attributes, ctx) => ({
      ...attributes,
      ...Object.fromEntries(
        ['group_ids', 'service_ids']
          .filter((key) => Array.isArray(attributes[key]))
          .map((key) => [key, [...new Set(ids(attributes[key]))]]),
      ),
      ...(ctx.existing ? {} : { created_by_user_id: ctx.principal.user_id }),
      last_updated_by_user_id: ctx.principal.user_id,
    }),
  },
});
