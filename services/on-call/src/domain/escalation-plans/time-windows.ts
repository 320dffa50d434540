import { DateTime } from 'luxon';
import { ianaZone } from './zone-names.js';

/** A path's time restriction as the reference writes it: a weekly window, possibly across the week's end. */
export interface TimeRestriction {
  start_day: string;
  start_time: string;
  end_day: string;
  end_time: string;
}

/** A policy's business hours (the reference's `business_hours`): days as M T W R F U S (R Thursday, U Sunday, S Saturday). */
export interface BusinessHours {
  time_zone?: string | null;
  days?: readonly string[] | null;
  start_time?: string | null;
  end_time?: string | null;
}

const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const DAY_LETTERS = ['M', 'T', 'W', 'R', 'F', 'S', 'U'];
const MINUTES_A_DAY = 1440;
const MINUTES_A_WEEK = 7 * MINUTES_A_DAY;

/** Minutes after midnight of "HH:MM", or null when it is not such a time. */
export function minutesOf(time: string | null | undefined): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** `at` on the wall clock of `zone`: Monday 0 .. Sunday 6, and minutes after midnight. */
function wallClock(at: Date, zone: string): { day: number; minute: number } {
  const local = DateTime.fromJSDate(at, { zone });
  return { day: local.weekday - 1, minute: local.hour * 60 + local.minute };
}

/** Whether a restriction set holds, and a phrase saying so (`zone` as stored: IANA or Rails). */
export function withinTimeRestrictions(
  restrictions: readonly TimeRestriction[],
  zoneName: string | null | undefined,
  at: Date,
): { holds: boolean; why: string } {
  if (!restrictions.length) return { holds: true, why: 'no time restrictions' };
  const zone = ianaZone(zoneName ?? 'UTC');
  if (!zone) return { holds: false, why: `time restrictions in an unknown time zone "${zoneName}": not held` };
  const now = wallClock(at, zone);
  const minute = now.day * MINUTES_A_DAY + now.minute;
  const held = restrictions.find((r) => {
    const start = weekMinute(r.start_day, r.start_time);
    const end = weekMinute(r.end_day, r.end_time);
    if (start === null || end === null) return false;
    // Equal ends are the whole week; a window ending before it starts runs across Sunday midnight.
    if (start === end) return true;
    return start < end ? minute >= start && minute < end : minute >= start || minute < end;
  });
  const local = `${WEEK_DAYS[now.day]} ${String(Math.floor(now.minute / 60)).padStart(2, '0')}:${String(now.minute % 60).padStart(2, '0')} ${zone}`;
  return held
    ? { holds: true, why: `${local} is within ${held.start_day} ${held.start_time}–${held.end_day} ${held.end_time}` }
    : { holds: false, why: `${local} is outside its time restrictions` };
}

function weekMinute(day: string, time: string): number | null {
  const index = WEEK_DAYS.indexOf(day);
  const minute = minutesOf(time);
  return index < 0 || minute === null ? null : (index * MINUTES_A_DAY + minute) % MINUTES_A_WEEK;
}

/**
 * Whether `at` falls in the business hours, in their zone: a listed day between
 * start_time and end_time; an end before the start runs past midnight into the next
 * day. Business hours missing a zone, days or times (or none at all) hold never.
 */
export function withinBusinessHours(hours: BusinessHours | null | undefined, at: Date): boolean {
  const zone = ianaZone(hours?.time_zone);
  const start = minutesOf(hours?.start_time);
  const end = minutesOf(hours?.end_time);
  const days = hours?.days ?? [];
  if (!zone || start === null || end === null || !days.length) return false;
  const now = wallClock(at, zone);
  const listed = (day: number) => days.includes(DAY_LETTERS[(day + 7) % 7]!);
  if (start < end) return listed(now.day) && now.minute >= start && now.minute < end;
  if (start === end) return listed(now.day);
  return (listed(now.day) && now.minute >= start) || (listed(now.day - 1) && now.minute < end);
}
