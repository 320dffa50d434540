import { z } from 'zod';
import { MAX_JSON_PATH_LENGTH } from '../matching/index.js';
import { timeOfDay, timeZone } from '../schedules/schedule-times.schemas.js';

/**
 * The escalation family's field schemas, shared by policies, paths and levels. Time zones
 * are IANA names only (the schedules' `timeZone`): the reference's Rails names
 * ("Pacific Time (US & Canada)") are a 422 (docs/paging.md).
 */

/** Longest initial delay of a path and delay of a level: a week, in minutes (the reference's bound). */
export const MAX_DELAY_MINUTES = 10_080;
/** Most targets one level pages, rules one path holds, values one rule lists. */
export const MAX_LEVEL_TARGETS = 50;
export const MAX_PATH_RULES = 20;
const MAX_RULE_VALUES = 100;
const MAX_TIME_RESTRICTIONS = 28;

const text = z.string().max(1_000);
const uuid = z.uuid().transform((id) => id.toLowerCase());
export const uuidList = z.array(uuid).max(MAX_LEVEL_TARGETS);
export const repeatCount = z.number().int().min(0).max(100);

export const businessHours = z
  .strictObject({
    time_zone: timeZone.nullable().optional(),
    days: z
      .array(z.enum(['M', 'T', 'W', 'R', 'F', 'U', 'S']))
      .max(7)
      .nullable()
      .optional(),
    start_time: timeOfDay.nullable().optional(),
    end_time: timeOfDay.nullable().optional(),
  })
  .transform((b) => ({
    time_zone: b.time_zone ?? null,
    days: b.days ?? null,
    start_time: b.start_time ?? null,
    end_time: b.end_time ?? null,
  }))
  .nullable();

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export const timeRestrictions = z
  .array(z.strictObject({ start_day: z.enum(WEEKDAYS), start_time: timeOfDay, end_day: z.enum(WEEKDAYS), end_time: timeOfDay }))
  .max(MAX_TIME_RESTRICTIONS);

const values = z.array(text).max(MAX_RULE_VALUES);
const JSON_PATH_OPERATORS = [
  'is',
  'is_not',
  'contains',
  'does_not_contain',
  'contains_key',
  'does_not_contain_key',
  'starts_with',
  'does_not_start_with',
  'matches',
  'does_not_match',
  'is_one_of',
  'is_not_one_of',
  'is_set',
  'is_not_set',
] as const;
const FIELD_OPERATORS = [
  'is',
  'is_not',
  'is_one_of',
  'is_not_one_of',
  'contains',
  'does_not_contain',
  'is_empty',
  'is_not_empty',
  'contains_key',
  'does_not_contain_key',
  'starts_with',
  'does_not_start_with',
  'matches',
  'does_not_match',
] as const;

const timeBlock = z.strictObject({
  monday: z.boolean().default(false),
  tuesday: z.boolean().default(false),
  wednesday: z.boolean().default(false),
  thursday: z.boolean().default(false),
  friday: z.boolean().default(false),
  saturday: z.boolean().default(false),
  sunday: z.boolean().default(false),
  start_time: timeOfDay.optional(),
  end_time: timeOfDay.optional(),
  all_day: z.boolean().default(false),
  position: z.number().int().min(0).max(1_000).nullable().optional(),
});

/** A path rule, the reference's oneOf by `rule_type`; ids and patterns are judged against the team in escalation-rules.ts. */
export const pathRule = z.discriminatedUnion('rule_type', [
  z.strictObject({ rule_type: z.literal('alert_urgency'), urgency_ids: uuidList }),
  z.strictObject({ rule_type: z.literal('working_hour'), within_working_hour: z.boolean() }),
  z.strictObject({
    rule_type: z.literal('json_path'),
    json_path: z.string().min(1).max(MAX_JSON_PATH_LENGTH),
    operator: z.enum(JSON_PATH_OPERATORS),
    value: text.nullable().optional(),
    values: values.optional(),
  }),
  z.strictObject({
    rule_type: z.literal('field'),
    fieldable_type: z.literal('AlertField'),
    fieldable_id: z.string().min(1).max(255),
    operator: z.enum(FIELD_OPERATORS),
    values: values.optional(),
  }),
  z.strictObject({ rule_type: z.literal('service'), service_ids: uuidList }),
  z.strictObject({
    rule_type: z.literal('deferral_window'),
    time_zone: timeZone,
    time_blocks: z.array(timeBlock).max(MAX_TIME_RESTRICTIONS),
  }),
  z.strictObject({ rule_type: z.literal('source'), operator: z.enum(['is', 'is_not', 'is_one_of', 'is_not_one_of']), values }),
  z.strictObject({ rule_type: z.literal('related_incidents'), operator: z.enum(['is_set', 'is_not_set']) }),
]);
export type PathRule = z.infer<typeof pathRule>;

export const TARGET_KINDS = ['team', 'user', 'schedule', 'slack_channel', 'microsoft_teams_channel', 'service'] as const;

/**
 * A level's target as stored (`LevelTarget` of paging.ports.ts): UUIDs in lower case, a
 * user's integer id as a string, `team_members` only on teams (default `all`).
 */
export const levelTarget = z
  .strictObject({
    id: z.union([z.string().min(1).max(255), z.number().int().min(1)]).transform(String),
    type: z.enum(TARGET_KINDS),
    team_members: z.enum(['all', 'admins', 'escalate']).nullable().optional(),
  })
  .transform((t) => ({
    id: ['team', 'schedule', 'service'].includes(t.type) ? t.id.toLowerCase() : t.id,
    type: t.type,
    team_members: t.type === 'team' ? (t.team_members ?? 'all') : null,
  }));

export const levelTargets = z.array(levelTarget).max(MAX_LEVEL_TARGETS);
