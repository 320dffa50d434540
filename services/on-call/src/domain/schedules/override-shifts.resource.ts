import { z } from 'zod';
import type { ValidationIssue } from '@firewatch/errors';
import { defineResource, type HookContext, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { teamUserIssues } from '../users/team-users.check.js';
import { usersInclude } from '../users/users.include.js';
import { instant } from './schedule-times.schemas.js';
import { userId } from './schedules.resource.js';

/** An override replaces the rotations for a while, not for good: at most this long. */
export const MAX_OVERRIDE_DAYS = 31;
/** Overrides are read per schedule and range by the shift computation; a schedule holds at most this many. */
export const MAX_OVERRIDES_PER_SCHEDULE = 10_000;

/** starts_at before ends_at, the length bounded, and no other override of the schedule in the way. */
async function timeIssues(attributes: Row, ctx: HookContext<OnCallResourceDeps>): Promise<ValidationIssue[]> {
  const [startsAt, endsAt] = [attributes.starts_at as Date, attributes.ends_at as Date];
  if (startsAt >= endsAt) return [{ pointer: '/data/attributes/ends_at', detail: 'ends_at must be after starts_at.' }];
  if (endsAt.getTime() - startsAt.getTime() > MAX_OVERRIDE_DAYS * 86_400_000) {
    return [{ pointer: '/data/attributes/ends_at', detail: `An override shift lasts at most ${MAX_OVERRIDE_DAYS} days.` }];
  }
  const clash = await ctx.deps.scheduling.overlappingOverride(ctx.tx, String(ctx.parent!.id), startsAt, endsAt);
  return clash
    ? [
        {
          pointer: '/data/attributes/starts_at',
          code: 'overlaps',
          detail: `Overlaps the override shift ${clash.id} (${clash.starts_at.toISOString()} to ${clash.ends_at.toISOString()}) of this schedule.`,
        },
      ]
    : [];
}

/**
 * Override shifts (issue 12, the reference's override shifts; JSON:API type `shifts`):
 * a user of the team on call for a schedule from `starts_at` to `ends_at`, ahead of its
 * rotations. Overrides of one schedule never overlap, so the computed shifts never
 * have to choose between two of them. Only the user changes afterwards (the
 * reference's update_override_shift); another time is a new override.
 */
export const overrideShifts = defineResource<OnCallResourceDeps>({
  type: 'shifts',
  // GET /v1/shifts' computed shifts are JSON:API `shifts` too: components, operationIds and cascades use this name.
  name: 'override_shifts',
  path: '/v1/override_shifts',
  collections: [{ path: '/v1/schedules/{schedule_id}/override_shifts' }],
  parent: { resource: 'schedules', param: 'schedule_id', column: 'schedule_id' },
  table: 'override_shifts',
  event: 'override_shift',
  permission: { scope: 'oc.shift_overrides', side: 'oc' },
  summary: { singular: 'override shift', plural: 'override shifts' },
  create: z.strictObject({ starts_at: instant, ends_at: instant, user_id: userId }),
  update: z.strictObject({ user_id: userId }),
  attributes: ['schedule_id', 'rotation_id', 'starts_at', 'ends_at', 'is_override', 'user_id'],
  computed: { rotation_id: () => null, is_override: () => true },
  relationships: {
    schedule: { type: 'schedules', column: 'schedule_id', resource: 'schedules' },
    user: { type: 'users', column: 'user_id' },
  },
  includes: { user: usersInclude('user_id') },
  attributeSchemas: {
    schedule_id: { type: 'string', format: 'uuid', description: 'The schedule' },
    rotation_id: { type: 'null', description: 'Always null: an override belongs to no rotation.' },
    starts_at: { type: 'string', format: 'date-time' },
    ends_at: { type: 'string', format: 'date-time' },
    is_override: { type: 'boolean', const: true },
  },
  sorts: ['starts_at', 'ends_at', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'starts_at', direction: 'asc' }],
  limit: { max: MAX_OVERRIDES_PER_SCHEDULE, per: 'schedule_id', detail: 'A schedule has at most {max} override shifts.' },
  updateMethods: ['put'],
  hooks: {
    async validate(attributes, ctx) {
      const users = await teamUserIssues(ctx, { user_id: attributes.user_id });
      return ctx.existing ? users : [...users, ...(await timeIssues(attributes, ctx))];
    },
    // Who created it, for GET /v1/shifts' include=shift_override (null: a key acting for no user).
    toColumns: (attributes, ctx) => (ctx.existing ? attributes : { ...attributes, created_by_user_id: ctx.principal.user_id }),
  },
});
