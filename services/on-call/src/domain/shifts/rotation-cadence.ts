import type { IANAZone } from 'luxon';
import type { DayCode, RotationSpec } from './shift.types.js';
import {
  addDays,
  addMonths,
  type CivilDate,
  type ClockTime,
  daysInMonth,
  instantOf,
  localOf,
  parseClock,
  weekdayOf,
  zoneOf,
} from './local-time.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Luxon weekday (1 = Monday) of each day code. */
export const WEEKDAY: Record<DayCode, number> = { M: 1, T: 2, W: 3, R: 4, F: 5, U: 6, S: 7 };

/**
 * A rotation's handoffs: `at(k)` is the k-th handoff instant, `at(0)` the last one at or
 * before the rotation's start. Turns are counted from there, so who is on call at any time
 * needs no walk from the start.
 */
export interface Cadence {
  at(k: number): number;
  /** The k with at(k) <= t < at(k + 1). */
  indexAt(t: number): number;
}

function cadence(at: (k: number) => number, nominal: number): Cadence {
  return {
    at,
    indexAt(t) {
      // The nominal period is within a few hours of every real one (DST, month lengths), so
      // the estimate is off by at most one or two turns.
      let k = Math.floor((t - at(0)) / nominal);
      while (at(k) > t) k -= 1;
      while (at(k + 1) <= t) k += 1;
      return k;
    },
  };
}

/** Handoffs every `step` civil days at `clock`, from the last such one at or before `start` on a day `accepts`. */
function everyDays(start: number, zone: IANAZone, clock: ClockTime, step: number, accepts: (d: CivilDate) => boolean): Cadence {
  let first = localOf(start, zone).date;
  while (!accepts(first) || instantOf(first, clock, zone) > start) first = addDays(first, -1);
  return cadence((k) => instantOf(addDays(first, k * step), clock, zone), step * DAY);
}

function monthly(start: number, zone: IANAZone, clock: ClockTime, last: boolean): Cadence {
  const dayIn = (d: CivilDate): CivilDate => ({ ...d, day: last ? daysInMonth(d.year, d.month) : 1 });
  let month = dayIn(localOf(start, zone).date);
  if (instantOf(month, clock, zone) > start) month = dayIn(addMonths({ ...month, day: 1 }, -1));
  const at = (k: number) => instantOf(dayIn(addMonths({ ...month, day: 1 }, k)), clock, zone);
  return cadence(at, 30.436875 * DAY);
}

/**
 * Handoffs every N hours where N divides 24: on the wall clock, at handoff_time + i·N each
 * civil day (a 6-hour rota hands off at 00, 06, 12 and 18 local every day, so the shift
 * across a change lasts 5 or 7 hours). A handoff skipped by spring-forward moves on by the
 * gap; when that makes it meet the next one (1-hour shifts), the turn between is empty.
 */
function wallClockHours(start: number, zone: IANAZone, clock: ClockTime, hours: number): Cadence {
  const base = localOf(start, zone).date;
  const perDay = 24 / hours;
  const handoff = (k: number) => {
    const day = Math.floor(k / perDay);
    const minutes = clock.hour * 60 + clock.minute + (k - day * perDay) * hours * 60;
    const date = addDays(base, day + Math.floor(minutes / 1440));
    return instantOf(date, { hour: Math.floor((minutes % 1440) / 60), minute: minutes % 60, second: clock.second }, zone);
  };
  let first = 0;
  while (handoff(first) > start) first -= 1;
  while (handoff(first + 1) <= start) first += 1;
  return cadence((k) => handoff(first + k), hours * HOUR);
}

/** Handoffs every N hours of elapsed time, N not dividing 24 (a 5-hour shift lasts 5 hours across a DST change; no wall-clock grid exists). */
function everyHours(start: number, zone: IANAZone, clock: ClockTime, hours: number): Cadence {
  const period = hours * HOUR;
  const origin = instantOf(localOf(start, zone).date, clock, zone);
  const first = origin - Math.ceil((origin - start) / period) * period;
  return cadence((k) => first + k * period, period);
}

export function cadenceOf(rotation: RotationSpec): Cadence {
  const zone = zoneOf(rotation.time_zone);
  const clock = parseClock(rotation.handoff_time);
  const start = rotation.starts_at;
  const any = () => true;
  switch (rotation.type) {
    case 'daily':
      return everyDays(start, zone, clock, 1, any);
    case 'weekly':
    case 'biweekly': {
      const weekday = WEEKDAY[(rotation.handoff_day ?? 'M') as DayCode] ?? 1;
      return everyDays(start, zone, clock, rotation.type === 'weekly' ? 7 : 14, (d) => weekdayOf(d) === weekday);
    }
    case 'monthly':
      return monthly(start, zone, clock, rotation.handoff_day === 'last_day_of_month');
    case 'custom': {
      const length = Math.max(1, rotation.shift_length ?? 1);
      if (rotation.shift_length_unit === 'hours')
        return 24 % length === 0 ? wallClockHours(start, zone, clock, length) : everyHours(start, zone, clock, length);
      return everyDays(start, zone, clock, rotation.shift_length_unit === 'weeks' ? 7 * length : length, any);
    }
  }
}
