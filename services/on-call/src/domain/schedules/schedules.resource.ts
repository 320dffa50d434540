import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { ownerGroupIds, ownerGroupIssues } from '../targets/group-references.js';
import { teamUserIssues } from '../users/team-users.check.js';
import { usersInclude } from '../users/users.include.js';

/** auth's user ids are positive integers (the reference's owner_user_id is an integer). */
export const userId = z.number().int().min(1).max(2_147_483_647);

/** With at most 20 rotations each, a team's shifts come from at most 10,000 rotations (GET /v1/shifts' budget still applies). */
export const MAX_SCHEDULES_PER_TEAM = 500;

const writable = {
  name: z.string().trim().min(1).max(255),
  description: z.string().max(10_000).nullable(),
  all_time_coverage: z
    .boolean()
    .nullable()
    .transform((v) => v ?? false),
  owner_user_id: userId,
  // Teams' ids (GET /v1/teams), each a team of the tenant (the validate hook).
  owner_group_ids: ownerGroupIds,
};

/**
 * Schedules (issue 12, the reference's schedules): who is on call, built from rotations
 * (`/v1/schedules/{schedule_id}/schedule_rotations`) and override shifts. The owner is a
 * user of the team; a group-scoped key sees only the schedules its groups own, and with
 * them their rotations, members, active days and overrides. Deleting a schedule deletes
 * those too, each announced with its own `.deleted` event.
 */
export const schedules = defineResource<OnCallResourceDeps>({
  type: 'schedules',
  path: '/v1/schedules',
  table: 'schedules',
  event: 'schedule',
  permission: { scope: 'oc.schedules', side: 'oc' },
  summary: { singular: 'schedule', plural: 'schedules' },
  limit: { max: MAX_SCHEDULES_PER_TEAM, detail: 'A team has at most {max} schedules.' },
  create: z.strictObject(writable).partial().required({ name: true, owner_user_id: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['name', 'description', 'all_time_coverage', 'owner_group_ids', 'owner_user_id'],
  jsonColumns: ['owner_group_ids'],
  ownerGroups: { column: 'owner_group_ids' },
  relationships: { owner_user: { type: 'users', column: 'owner_user_id' } },
  includes: { owner_user: usersInclude('owner_user_id') },
  attributeSchemas: {
    all_time_coverage: { type: 'boolean' },
    owner_group_ids: { type: 'array', items: { type: 'string' } },
  },
  filters: {
    search: { kind: 'search', columns: ['name', 'description'] },
    name: 'string',
    created_at: 'date',
  },
  sorts: ['name', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  updateMethods: ['put'],
  cascades: [
    { resource: 'schedule_rotations', column: 'schedule_id' },
    { resource: 'override_shifts', column: 'schedule_id' },
  ],
  hooks: {
    defaults: (attributes) => ({ description: null, all_time_coverage: false, owner_group_ids: [], ...attributes }),
    validate: async (attributes, ctx) => [
      ...(await teamUserIssues(ctx, { owner_user_id: attributes.owner_user_id })),
      ...(await ownerGroupIssues(attributes, ctx)),
    ],
  },
});
