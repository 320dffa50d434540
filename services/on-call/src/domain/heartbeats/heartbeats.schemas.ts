import { z } from 'zod';
import type { ValidationIssue } from '@firewatch/errors';
import type { Row } from '@firewatch/resource-kit';
import { ownerGroupIds } from '../targets/group-references.js';
import { INTERVAL_UNITS, MAX_INTERVAL_MS, intervalMs, type IntervalUnit } from './heartbeat-timing.js';

/** The reference's notification target types (as an alert's). */
export const TARGET_TYPES = ['User', 'Group', 'Service', 'EscalationPolicy', 'Functionality'] as const;

/** The attributes a create or update may write (the reference's new_heartbeat). */
export const writable = {
  name: z.string().trim().min(1).max(255),
  description: z.string().max(10_000).nullable(),
  alert_summary: z.string().trim().min(1).max(10_000),
  alert_description: z.string().max(100_000).nullable(),
  alert_urgency_id: z.uuid().nullable(),
  interval: z.number().int().min(1),
  interval_unit: z.enum(INTERVAL_UNITS as [IntervalUnit, ...IntervalUnit[]]),
  notification_target_type: z.enum(TARGET_TYPES),
  notification_target_id: z.string().trim().min(1).max(255),
  owner_group_ids: ownerGroupIds,
  enabled: z.boolean(),
};

/** What needs interval and unit together: at most a year. */
export function intervalIssues(merged: Row): ValidationIssue[] {
  const unit = merged.interval_unit as IntervalUnit;
  if (intervalMs(Number(merged.interval), unit) <= MAX_INTERVAL_MS) return [];
  return [{ pointer: '/data/attributes/interval', code: 'too_big', detail: 'interval: at most a year (366 days)' }];
}
