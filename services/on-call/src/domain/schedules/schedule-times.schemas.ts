import { z } from 'zod';
import type { ValidationIssue } from '@firewatch/errors';

/** The reference's day letters, Sunday first: R is Thursday, U Saturday. */
export const DAY_NAMES = ['S', 'M', 'T', 'W', 'R', 'F', 'U'] as const;

/** At most this many active windows in one day (one an hour is already more than any rota needs). */
export const MAX_WINDOWS_PER_DAY = 24;

/**
 * A wall-clock time in the rotation's time zone, `HH:MM` (`HH:MM:SS` with zero seconds is
 * taken too), stored and answered as `HH:MM`. An offset is refused: the rotation's
 * `time_zone` says where the clock is, and a second one could only contradict it.
 */
export const timeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:00)?$/, "must be a time of day HH:MM (24-hour, in the rotation's time_zone, no offset)")
  .transform((t) => t.slice(0, 5));

const activeWindow = z.strictObject({ start_time: timeOfDay, end_time: timeOfDay });
export type ActiveWindow = z.infer<typeof activeWindow>;

export const activeWindows = z.array(activeWindow).max(MAX_WINDOWS_PER_DAY);

/** OpenAPI of a stored time of day and of a day's windows, as answered. */
export const TIME_OF_DAY_SCHEMA = {
  type: 'string',
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  description: "HH:MM, wall clock in the rotation's time_zone",
};
export const ACTIVE_WINDOWS_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['start_time', 'end_time'],
    properties: { start_time: TIME_OF_DAY_SCHEMA, end_time: TIME_OF_DAY_SCHEMA },
  },
};

const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
/** `00:00` as an end is midnight at the end of the day. */
const endMinutes = (t: string) => minutes(t) || 24 * 60;

/**
 * Issues of one day's windows: each `[start_time, end_time)` must be non-empty and none may
 * overlap another, so a shift computation never has to choose between two of them.
 */
export function windowIssues(windows: readonly ActiveWindow[], pointer: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  windows.forEach((w, i) => {
    if (minutes(w.start_time) >= endMinutes(w.end_time)) {
      issues.push({
        pointer: `${pointer}/${i}/end_time`,
        detail: `end_time ${w.end_time} is not after start_time ${w.start_time} (00:00 means the end of the day; a window cannot cross midnight).`,
      });
    }
  });
  if (issues.length) return issues;
  const order = windows.map((w, i) => ({ w, i })).sort((a, b) => minutes(a.w.start_time) - minutes(b.w.start_time));
  for (let k = 1; k < order.length; k++) {
    const before = order[k - 1];
    if (minutes(order[k].w.start_time) < endMinutes(before.w.end_time)) {
      issues.push({
        pointer: `${pointer}/${order[k].i}/start_time`,
        detail: `overlaps the window ${before.w.start_time}–${before.w.end_time}.`,
      });
    }
  }
  return issues;
}

const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
const listedZones = new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));

/**
 * The IANA time zone name as stored, or undefined when it is none: the runtime's time zone
 * data (what Luxon uses too) must know it. Offsets such as `+01:00` are no IANA names.
 * Kept as sent (ICU would rewrite `Asia/Kolkata` to `Asia/Calcutta`), with the casing of
 * the listed name when there is one.
 */
export function ianaZone(name: string): string | undefined {
  if (name.length > 64 || !ZONE_SHAPE.test(name)) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    return undefined;
  }
  return listedZones.get(name.toLowerCase()) ?? name;
}

const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

/**
 * An instant, ISO 8601 with `Z` or an offset, as a Date; bounded to years 1970–2199, so
 * that neither PostgreSQL (year 0) nor a shift computation stepping from it meets an
 * absurd date.
 */
export const instant = z.iso
  .datetime({ offset: true })
  .transform((s) => new Date(s))
  .refine((d) => d.getTime() >= EARLIEST && d.getTime() < LATEST, 'must be between 1970 and 2199');

export const timeZone = z.string().transform((name, ctx) => {
  const zone = ianaZone(name);
  if (zone === undefined)
    ctx.addIssue({ code: 'custom', message: `"${name.slice(0, 64)}" is not an IANA time zone name (e.g. Europe/Berlin, Etc/UTC).` });
  return zone ?? name;
});
