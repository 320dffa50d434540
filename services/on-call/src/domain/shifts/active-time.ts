import type { IANAZone } from 'luxon';
import { DAY_CODES, type ActiveWeek, type DayCode, type TimeWindow } from './shift.types.js';
import { addDays, instantOf, localOf, parseClock, weekdayOf, zoneOf } from './local-time.js';
import { type Interval, mergeIntervals } from './intervals.js';
import { charge, type WorkBudget } from './work-budget.js';

const ALL_DAY: readonly TimeWindow[] = [{ start_time: '00:00', end_time: '00:00' }];

/** A rotation's active settings as the reference words them. */
export interface ActiveSettings {
  active_all_week?: boolean | null;
  active_days?: readonly string[] | null;
  active_time_type?: 'all_day' | 'same_time' | 'custom' | string | null;
  active_time_attributes?: readonly TimeWindow[] | null;
  /** `custom`: the rotation's schedule_rotation_active_days. */
  active_day_rows?: readonly { day_name: string; active_time_attributes: readonly TimeWindow[] }[];
}

/**
 * The week the settings describe, or null when always active: active_all_week (else
 * active_days) picks the days; all_day, same_time (active_time_attributes every active day)
 * or custom (each day's schedule_rotation_active_days) picks the hours.
 */
export function activeWeekOf(settings: ActiveSettings): ActiveWeek | null {
  const allWeek = settings.active_all_week ?? true;
  const type = settings.active_time_type ?? 'all_day';
  if (allWeek && type === 'all_day') return null;
  const days = allWeek ? DAY_CODES : DAY_CODES.filter((d) => settings.active_days?.includes(d));
  const week: ActiveWeek = {};
  for (const day of days) {
    if (type === 'same_time') week[day] = settings.active_time_attributes ?? [];
    else if (type === 'custom')
      week[day] = settings.active_day_rows?.filter((r) => r.day_name === day).flatMap((r) => r.active_time_attributes) ?? [];
    else week[day] = ALL_DAY;
  }
  return week;
}

const CODE_OF_WEEKDAY: Record<number, DayCode> = { 1: 'M', 2: 'T', 3: 'W', 4: 'R', 5: 'F', 6: 'U', 7: 'S' };

/**
 * The active intervals of a week in a zone that touch [s, e), merged (a window past midnight
 * joins the next day's). Each window of each day is charged to `budget`.
 */
export function activeIntervals(week: ActiveWeek, timeZone: string, s: number, e: number, budget?: WorkBudget): Interval[] {
  const zone: IANAZone = zoneOf(timeZone);
  const out: Interval[] = [];
  // From the day before s: a window running past midnight reaches into s's day.
  let date = addDays(localOf(s, zone).date, -1);
  const last = localOf(e, zone).date;
  for (;;) {
    const windows = week[CODE_OF_WEEKDAY[weekdayOf(date)]!] ?? [];
    charge(budget, Math.max(1, windows.length));
    for (const window of windows) {
      const from = parseClock(window.start_time);
      const to = parseClock(window.end_time);
      const crosses = to.hour * 3600 + to.minute * 60 + to.second <= from.hour * 3600 + from.minute * 60 + from.second;
      out.push([instantOf(date, from, zone), instantOf(crosses ? addDays(date, 1) : date, to, zone)]);
    }
    if (date.year === last.year && date.month === last.month && date.day === last.day) break;
    date = addDays(date, 1);
  }
  return mergeIntervals(out);
}
