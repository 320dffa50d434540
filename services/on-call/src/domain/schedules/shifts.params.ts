import { z } from 'zod';
import { DateTime } from 'luxon';

/** The longest range one request may ask for. */
export const MAX_RANGE_DAYS = 366;

// Years 1970-2199 (no six-digit years in the answer's date-times), hours 00-23 (no 24:00),
// offsets within ±18:00 (ISO 8601's and Luxon's range; +99:99 names no place).
const OFFSET_TIME =
  /^(19[7-9]\d|2[01]\d\d)-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-](0\d|1[0-7]):?[0-5]\d|[+-]18:?00)$/;

/** The instant a validated `from`/`to` names (Luxon reads the offset forms Date.parse may not, such as -0500). */
export const instantOfParam = (value: string) => DateTime.fromISO(value, { setZone: true }).toMillis();

/** The window a request without a range reads, and the length either bound alone implies (docs/decisions.md, Defaults). */
export const DEFAULT_RANGE_DAYS = 7;
const DAY_MS = 86_400_000;

const bound = (name: string, fallback: string) =>
  z
    .string('must be a string.')
    .refine((v) => OFFSET_TIME.test(v) && DateTime.fromISO(v, { setZone: true }).isValid, {
      message: `must be an ISO 8601 date-time in the years 1970-2199, hour 00-23, with Z or a numeric offset within ±18:00 (e.g. 2026-10-01T00:00:00+02:00); the ${name} as sent is not.`,
    })
    .optional()
    .describe(`ISO 8601 with Z or an offset (e.g. 2026-10-01T00:00:00Z). Optional: ${fallback}.`);

/**
 * The instants a request's range covers: both bounds as sent; one alone, that one and
 * DEFAULT_RANGE_DAYS from it; none, DEFAULT_RANGE_DAYS from now. The specification makes
 * both optional; the reference requires them.
 */
export function rangeOf(p: { from?: string; to?: string }, now = Date.now()): { from: number; to: number } {
  const span = DEFAULT_RANGE_DAYS * DAY_MS;
  if (p.from !== undefined && p.to !== undefined) return { from: instantOfParam(p.from), to: instantOfParam(p.to) };
  if (p.from !== undefined) return { from: instantOfParam(p.from), to: instantOfParam(p.from) + span };
  if (p.to !== undefined) return { from: instantOfParam(p.to) - span, to: instantOfParam(p.to) };
  return { from: now, to: now + span };
}

/** A repeated `name[]=...` (one value arrives as a string). */
const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).max(100, 'names at most 100 values.')).optional();

/**
 * GET /v1/shifts' own query parameters (docs/api-contract.md §6): optional bounds (`rangeOf`),
 * `to` after `from`, at most 366 days apart; each failure a 400 naming its parameter.
 */
export const shiftParams = z
  .strictObject({
    from: bound('from', `${DEFAULT_RANGE_DAYS} days before \`to\` when only \`to\` is sent, else now`),
    to: bound('to', `${DEFAULT_RANGE_DAYS} days after \`from\``),
    'schedule_ids[]': list(z.uuid('must be schedule ids (UUIDs).')),
    'user_ids[]': list(z.coerce.number('must be user ids (integers).').int('must be user ids (integers).').min(1).max(2_147_483_647)),
  })
  .superRefine((p, ctx) => {
    if (p.from === undefined || p.to === undefined) return;
    const from = instantOfParam(p.from);
    const to = instantOfParam(p.to);
    if (to <= from) ctx.addIssue({ code: 'custom', path: ['to'], message: `must be after from (${p.from}); got ${p.to}.` });
    else if (to - from > MAX_RANGE_DAYS * DAY_MS)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `the range from..to is longer than ${MAX_RANGE_DAYS} days; ask for at most ${MAX_RANGE_DAYS} days at a time.`,
      });
  });

export type ShiftParams = z.output<typeof shiftParams>;
