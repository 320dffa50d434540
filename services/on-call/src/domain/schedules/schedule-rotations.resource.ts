import { z } from 'zod';
import { defineResource, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import {
  ACTIVE_TIME_TYPES,
  activeDays,
  activityIssues,
  ROTATION_TYPES,
  rotationableAttributes,
  rotationableIssues,
  rotationAttributeSchemas,
  type RotationType,
} from './schedule-rotations.schemas.js';
import { activeWindows, instant, timeZone } from './schedule-times.schemas.js';
import { teamUserIssues } from '../users/team-users.check.js';
import { MAX_USERS_PER_ROTATION } from './schedule-rotation-users.resource.js';

/** Rotations are layered and computed per schedule, so a schedule holds a bounded number. */
export const MAX_ROTATIONS_PER_SCHEDULE = 20;

const writable = {
  name: z.string().trim().min(1).max(255),
  position: z.number().int().min(0).max(1_000_000),
  schedule_rotationable_type: z.enum(ROTATION_TYPES),
  schedule_rotationable_attributes: rotationableAttributes,
  time_zone: timeZone,
  start_time: instant.nullable(),
  end_time: instant.nullable(),
  active_all_week: z.boolean(),
  active_days: activeDays,
  active_time_type: z.enum(ACTIVE_TIME_TYPES),
  active_time_attributes: activeWindows,
};

const MEMBERS = 'schedule_rotation_members';

/**
 * The reference's create body names the rotation's members: users by id, in `position`
 * order. Schedules as members (the reference's schedule nesting) are not served.
 */
const members = z
  .array(
    z.strictObject({
      member_type: z.literal('User', 'must be User: schedules as members (schedule nesting) are not served'),
      member_id: z.union([z.string().regex(/^[1-9]\d{0,9}$/, 'must be a user id'), z.number().int().min(1)]).transform(Number),
      position: z.number().int().min(0).max(1_000_000).optional(),
    }),
  )
  .max(MAX_USERS_PER_ROTATION)
  .refine((ms) => new Set(ms.map((m) => m.member_id)).size === ms.length, 'names a user more than once')
  .nullable()
  .describe('The members (users) the rotation starts with, in position order; each becomes a schedule_rotation_user.');

const millis = (v: unknown) => (v instanceof Date ? v.getTime() : undefined);

/**
 * Schedule rotations (issue 12, the reference's schedule_rotations): members taking turns
 * (`schedule_rotation_users`) by a daily, weekly, biweekly, monthly or custom cadence in
 * the rotation's IANA `time_zone`, between `start_time` and `end_time`, on its active
 * days and times (per-day times in `schedule_rotation_active_days` when
 * `active_time_type` is custom). Listed and created under their schedule, hidden with
 * it. Every write is judged on the merged record: the type's attributes must be its
 * oneOf branch of the reference, and the active days and times must leave a shift possible.
 */
export const scheduleRotations = defineResource<OnCallResourceDeps>({
  type: 'schedule_rotations',
  path: '/v1/schedule_rotations',
  collections: [{ path: '/v1/schedules/{schedule_id}/schedule_rotations' }],
  parent: { resource: 'schedules', param: 'schedule_id', column: 'schedule_id' },
  table: 'schedule_rotations',
  event: 'schedule_rotation',
  permission: { scope: 'oc.schedules', side: 'oc' },
  summary: { singular: 'schedule rotation', plural: 'schedule rotations' },
  create: z
    .strictObject({ ...writable, [MEMBERS]: members })
    .partial()
    .required({ name: true, schedule_rotationable_type: true, schedule_rotationable_attributes: true }),
  update: z.strictObject(writable).partial(),
  attributes: [
    'schedule_id',
    'name',
    'position',
    'schedule_rotationable_type',
    'active_all_week',
    'active_days',
    'active_time_type',
    'active_time_attributes',
    'time_zone',
    'schedule_rotationable_attributes',
    'start_time',
    'end_time',
  ],
  // The reference's schedule_rotation answers no timestamps (its attributes are closed here).
  timestamps: false,
  relationships: { schedule: { type: 'schedules', column: 'schedule_id', resource: 'schedules' } },
  attributeSchemas: rotationAttributeSchemas,
  jsonColumns: ['schedule_rotationable_attributes', 'active_days', 'active_time_attributes'],
  sorts: ['position', 'name', 'created_at', 'updated_at'],
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  // A rotation added without a position comes after the schedule's others (lower positions win overlaps).
  position: { per: 'schedule_id' },
  limit: { max: MAX_ROTATIONS_PER_SCHEDULE, per: 'schedule_id', detail: 'A schedule has at most {max} rotations.' },
  updateMethods: ['put'],
  cascades: [
    { resource: 'schedule_rotation_users', column: 'schedule_rotation_id' },
    { resource: 'schedule_rotation_active_days', column: 'schedule_rotation_id' },
  ],
  // Written on create only (the reference's create body); read back as schedule_rotation_users.
  children: {
    [MEMBERS]: {
      table: 'schedule_rotation_users',
      key: 'schedule_rotation_id',
      mode: 'replace',
      columns: ['team_id', 'user_id'],
      announce: 'schedule_rotation_users',
    },
  },
  hooks: {
    prepare(attributes, ctx) {
      const sent = attributes[MEMBERS] as { member_id: number; position?: number }[] | null | undefined;
      if (sent === undefined) return attributes;
      // Sorted by position (a stable sort keeps the sent order among equals and unset ones).
      // `sent_at` (the index as sent) lets validate point at the entry; only the columns are written.
      const entries = (sent ?? []).map((m, sent_at) => ({
        team_id: ctx.principal.team_id,
        user_id: m.member_id,
        sent_at,
        position: m.position,
      }));
      entries.sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity));
      return { ...attributes, [MEMBERS]: entries.map(({ position: _position, ...entry }) => entry) };
    },
    defaults(attributes) {
      return {
        time_zone: 'Etc/UTC',
        start_time: null,
        end_time: null,
        active_all_week: true,
        active_days: [],
        active_time_type: 'all_day',
        active_time_attributes: [],
        ...attributes,
      };
    },
    async validate(attributes, ctx) {
      const merged: Row = { ...ctx.existing, ...attributes };
      const named = ((attributes[MEMBERS] as Row[] | undefined) ?? []).map((m) => [`${MEMBERS}/${String(m.sent_at)}/member_id`, m.user_id]);
      const issues = [
        ...rotationableIssues(merged.schedule_rotationable_type as RotationType, merged.schedule_rotationable_attributes as Row),
        ...activityIssues(merged),
      ];
      const [start, end] = [millis(merged.start_time), millis(merged.end_time)];
      if (start !== undefined && end !== undefined && start >= end) {
        issues.push({
          pointer: `/data/attributes/${'end_time' in attributes ? 'end_time' : 'start_time'}`,
          detail: 'end_time must be after start_time.',
        });
      }
      return [...issues, ...(await teamUserIssues(ctx, Object.fromEntries(named)))];
    },
  },
});
