import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { ACTIVE_WINDOWS_SCHEMA, activeWindows, DAY_NAMES, windowIssues, type ActiveWindow } from './schedule-times.schemas.js';

const writable = {
  day_name: z.enum(DAY_NAMES),
  active_time_attributes: activeWindows.min(1),
};

/**
 * Schedule rotation active days (docs/on-call.md): the times a rotation with
 * `active_time_type` custom is active on one day of the week (`day_name`, S M T W R F U:
 * Sunday to Saturday). One row per day and rotation (409 for a second); its windows are
 * non-empty, within the day, and never overlap.
 */
export const scheduleRotationActiveDays = defineResource<OnCallResourceDeps>({
  type: 'schedule_rotation_active_days',
  path: '/v1/schedule_rotation_active_days',
  collections: [{ path: '/v1/schedule_rotations/{schedule_rotation_id}/schedule_rotation_active_days' }],
  parent: { resource: 'schedule_rotations', param: 'schedule_rotation_id', column: 'schedule_rotation_id' },
  table: 'schedule_rotation_active_days',
  event: 'schedule_rotation_active_day',
  permission: { scope: 'oc.schedules', side: 'oc' },
  summary: { singular: 'schedule rotation active day', plural: 'schedule rotation active days' },
  create: z.strictObject(writable),
  update: z.strictObject(writable).partial(),
  attributes: ['schedule_rotation_id', 'day_name', 'active_time_attributes'],
  relationships: { schedule_rotation: { type: 'schedule_rotations', column: 'schedule_rotation_id', resource: 'schedule_rotations' } },
  attributeSchemas: {
    schedule_rotation_id: { type: 'string', format: 'uuid', description: 'The rotation' },
    active_time_attributes: ACTIVE_WINDOWS_SCHEMA,
  },
  jsonColumns: ['active_time_attributes'],
  sorts: ['created_at', 'updated_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  updateMethods: ['put'],
  unique: {
    schedule_rotation_active_days_rotation_day_unique: {
      pointer: '/data/attributes/day_name',
      detail: 'The rotation already has active times for this day.',
    },
  },
  hooks: {
    validate: (attributes) =>
      windowIssues((attributes.active_time_attributes as ActiveWindow[] | undefined) ?? [], '/data/attributes/active_time_attributes'),
  },
});
