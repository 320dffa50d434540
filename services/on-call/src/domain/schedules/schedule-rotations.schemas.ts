import { z } from 'zod';
import type { ValidationIssue } from '@firewatch/errors';
import type { Row } from '@firewatch/resource-kit';
import {
  ACTIVE_WINDOWS_SCHEMA,
  DAY_NAMES,
  TIME_OF_DAY_SCHEMA as time,
  timeOfDay,
  windowIssues,
  type ActiveWindow,
} from './schedule-times.schemas.js';

export const ROTATION_TYPES = [
  'ScheduleDailyRotation',
  'ScheduleWeeklyRotation',
  'ScheduleBiweeklyRotation',
  'ScheduleMonthlyRotation',
  'ScheduleCustomRotation',
] as const;
export type RotationType = (typeof ROTATION_TYPES)[number];

export const ACTIVE_TIME_TYPES = ['all_day', 'same_time', 'custom'] as const;
export const MONTHLY_HANDOFF_DAYS = ['first_day_of_month', 'last_day_of_month'] as const;
export const SHIFT_LENGTH_UNITS = ['hours', 'days', 'weeks'] as const;

/** A custom shift is at most about a year long: the shift computation never has to step further. */
export const MAX_SHIFT_LENGTH: Record<(typeof SHIFT_LENGTH_UNITS)[number], number> = { hours: 8784, days: 366, weeks: 52 };

/**
 * Every key any of the reference's oneOf branches takes; which ones a rotation needs is
 * decided by its type (`rotationableIssues`), on the merged record, so that a PUT changing
 * only the type is judged against the attributes it keeps.
 */
export const rotationableAttributes = z
  .strictObject({
    handoff_time: timeOfDay,
    handoff_day: z.string().max(32),
    shift_length: z.number().int().min(1).max(MAX_SHIFT_LENGTH.hours),
    shift_length_unit: z.enum(SHIFT_LENGTH_UNITS),
  })
  .partial();

const KEYS_OF: Record<RotationType, readonly string[]> = {
  ScheduleDailyRotation: ['handoff_time'],
  ScheduleWeeklyRotation: ['handoff_time', 'handoff_day'],
  ScheduleBiweeklyRotation: ['handoff_time', 'handoff_day'],
  ScheduleMonthlyRotation: ['handoff_time', 'handoff_day'],
  ScheduleCustomRotation: ['shift_length', 'shift_length_unit', 'handoff_time'],
};

const HANDOFF_DAYS: Partial<Record<RotationType, readonly string[]>> = {
  ScheduleWeeklyRotation: DAY_NAMES,
  ScheduleBiweeklyRotation: DAY_NAMES,
  ScheduleMonthlyRotation: MONTHLY_HANDOFF_DAYS,
};

const AT = '/data/attributes/schedule_rotationable_attributes';

/** Whether `attributes` is exactly the reference's oneOf branch of `type`: its keys, no others, in range. */
export function rotationableIssues(type: RotationType, attributes: Row): ValidationIssue[] {
  const wanted = KEYS_OF[type];
  const issues: ValidationIssue[] = [];
  for (const key of wanted) {
    if (attributes[key] === undefined) issues.push({ pointer: `${AT}/${key}`, detail: `${type} needs ${key}.` });
  }
  for (const key of Object.keys(attributes)) {
    if (!wanted.includes(key))
      issues.push({ pointer: `${AT}/${key}`, detail: `${type} does not take ${key} (it takes ${wanted.join(', ')}).` });
  }
  const days = HANDOFF_DAYS[type];
  if (days && attributes.handoff_day !== undefined && !days.includes(String(attributes.handoff_day))) {
    issues.push({ pointer: `${AT}/handoff_day`, detail: `${type}'s handoff_day is one of ${days.join(', ')}.` });
  }
  const unit = attributes.shift_length_unit as keyof typeof MAX_SHIFT_LENGTH | undefined;
  if (type === 'ScheduleCustomRotation' && unit && Number(attributes.shift_length) > MAX_SHIFT_LENGTH[unit]) {
    issues.push({ pointer: `${AT}/shift_length`, detail: `A custom shift is at most ${MAX_SHIFT_LENGTH[unit]} ${unit} long.` });
  }
  return issues;
}

/**
 * The active days and times of a rotation, judged together on the merged record: a
 * rotation that is active on no day, or "same time" every day without a time, could
 * never have a shift.
 */
export function activityIssues(rotation: Row): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (rotation.active_all_week === false && !(rotation.active_days as string[]).length) {
    issues.push({ pointer: '/data/attributes/active_days', detail: 'A rotation not active all week needs its active days.' });
  }
  const windows = rotation.active_time_attributes as ActiveWindow[];
  if (rotation.active_time_type === 'same_time' && !windows.length) {
    issues.push({ pointer: '/data/attributes/active_time_attributes', detail: 'active_time_type same_time needs the active times.' });
  }
  return [...issues, ...windowIssues(windows, '/data/attributes/active_time_attributes')];
}

export const activeDays = z
  .array(z.enum(DAY_NAMES))
  .max(DAY_NAMES.length)
  .refine((days) => new Set(days).size === days.length, 'names a day more than once');

/** Response schemas of what the write schemas describe only loosely (the stored, normalised forms). */
export const rotationAttributeSchemas: Record<string, Record<string, unknown>> = {
  schedule_id: { type: 'string', format: 'uuid', description: 'The parent schedule' },
  schedule_rotationable_attributes: {
    oneOf: [
      { type: 'object', additionalProperties: false, required: ['handoff_time'], properties: { handoff_time: time } },
      {
        type: 'object',
        additionalProperties: false,
        required: ['handoff_time', 'handoff_day'],
        properties: { handoff_time: time, handoff_day: { type: 'string', enum: [...DAY_NAMES] } },
      },
      {
        type: 'object',
        additionalProperties: false,
        required: ['handoff_time', 'handoff_day'],
        properties: { handoff_time: time, handoff_day: { type: 'string', enum: [...MONTHLY_HANDOFF_DAYS] } },
      },
      {
        type: 'object',
        additionalProperties: false,
        required: ['shift_length', 'shift_length_unit', 'handoff_time'],
        properties: {
          shift_length: { type: 'integer' },
          shift_length_unit: { type: 'string', enum: [...SHIFT_LENGTH_UNITS] },
          handoff_time: time,
        },
      },
    ],
  },
  active_time_attributes: ACTIVE_WINDOWS_SCHEMA,
  start_time: { type: ['string', 'null'], format: 'date-time' },
  end_time: { type: ['string', 'null'], format: 'date-time' },
};
