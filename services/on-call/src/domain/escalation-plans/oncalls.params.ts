import { z } from 'zod';
import { DateTime } from 'luxon';
import { MAX_RANGE_DAYS } from '../schedules/shifts.params.js';
import { ianaZone } from './zone-names.js';

const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Years 1970-2199 with a zone (Z or an offset), as GET /v1/shifts takes its bounds; a date alone is midnight UTC.
const INSTANT =
  /^(19[7-9]\d|2[01]\d\d)-\d{2}-\d{2}(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-](0\d|1[0-7]):?[0-5]\d|[+-]18:?00))?$/;

const instant = (name: string) =>
  z
    .string('must be a string.')
    .refine((v) => INSTANT.test(v) && DateTime.fromISO(v, { zone: 'utc', setZone: true }).isValid, {
      message: `must be an ISO 8601 date-time with Z or an offset (e.g. 2026-11-26T00:00:00Z), years 1970-2199; the ${name} as sent is not.`,
    })
    .transform((v) => DateTime.fromISO(v, { zone: 'utc', setZone: true }).toMillis())
    .optional();

/** A comma-separated list (the reference's `filter[...]`), each item checked; at most 100. */
const commaList = <T extends z.ZodType>(item: T, what: string) =>
  z
    .string('must be a comma-separated list.')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item, `must be ${what}, comma-separated.`).max(100, 'names at most 100 values.') as z.ZodType<z.output<T>[], string[]>)
    .optional();

const uuids = (what: string) =>
  commaList(
    z
      .string()
      .regex(UUID, `must be ${what} (UUIDs).`)
      .transform((s) => s.toLowerCase()),
    `${what} (UUIDs)`,
  );

/**
 * GET /v1/oncalls' parameters, as the reference names them (`include` is the kit's):
 * `since` (default now) and `until` (default `since`: who is on call at that instant),
 * at most 366 days apart; `time_zone` for the answer's times (IANA or the reference's
 * Rails names); `earliest`; the `filter[...]` lists comma-separated. Each failure a 400
 * naming its parameter.
 */
export const oncallParams = z
  .strictObject({
    since: instant('since').describe('ISO 8601 with Z or an offset. Default: now.'),
    until: instant('until').describe('ISO 8601 with Z or an offset. Default: `since` (who is on call at that instant).'),
    earliest: z
      .enum(['true', 'false'], 'must be true or false.')
      .transform((v) => v === 'true')
      .optional()
      .describe('true: only the first entry of each policy path and level.'),
    time_zone: z
      .string()
      .refine((v) => ianaZone(v) !== null, { message: 'must be a time zone (IANA, e.g. America/New_York, or one of the reference names).' })
      .transform((v) => ianaZone(v)!)
      .optional()
      .describe('The zone of starts_at and ends_at in the answer. Default: UTC.'),
    'filter[escalation_policy_ids]': uuids('escalation policy ids'),
    'filter[schedule_ids]': uuids('schedule ids'),
    'filter[user_ids]': commaList(z.coerce.number().int().min(1).max(2_147_483_647), 'user ids (integers)'),
    'filter[service_ids]': uuids('service ids'),
    'filter[group_ids]': uuids('team ids'),
    'filter[notification_types]': commaList(z.enum(['audible', 'quiet'], 'must be audible or quiet.'), 'audible or quiet'),
  })
  .superRefine((p, ctx) => {
    if (p.until === undefined) return;
    // since defaults to now: an until alone is judged against it (listOncalls reads now again, a moment later).
    const since = p.since ?? Date.now();
    if (p.until < since) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must not be before since (default: now).' });
    else if (p.until - since > MAX_RANGE_DAYS * DAY_MS)
      ctx.addIssue({
        code: 'custom',
        path: ['until'],
        message: `since..until is longer than ${MAX_RANGE_DAYS} days; ask for at most ${MAX_RANGE_DAYS} days at a time.`,
      });
  });

export type OncallParams = z.output<typeof oncallParams>;
