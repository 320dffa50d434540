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
    .strictObject(writable)
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
  hooks: {
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
    validate(attributes, ctx) {
      const merged: Row = { ...ctx.existing, ...attributes };
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
      return issues;
    },
  },
});
