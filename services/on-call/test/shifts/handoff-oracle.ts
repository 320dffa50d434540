import { DateTime } from 'luxon';
import type { RotationSpec } from '../../src/domain/shifts/index.js';

const WEEKDAY: Record<string, number> = { M: 1, T: 2, W: 3, R: 4, F: 5, U: 6, S: 7 };

/**
 * A rotation's handoff instants from the one at or before its start until past `until`,
 * enumerated naively with Luxon's own wall-clock arithmetic (DateTime#set on the start of
 * each local day), independently of the engine's cadence and local-time code: the oracle
 * of the property tests.
 */
export function handoffs(r: RotationSpec, until: number): number[] {
  const zone = r.time_zone;
  const [hh, mm] = r.handoff_time.split(':').map(Number) as [number, number];
  const atDay = (day: DateTime, minutes = hh * 60 + mm) =>
    day
      .plus({ days: Math.floor(minutes / 1440) })
      .startOf('day')
      .set({ hour: Math.floor((minutes % 1440) / 60), minute: minutes % 60, second: 0, millisecond: 0 })
      .toMillis();
  const startDay = DateTime.fromMillis(r.starts_at, { zone }).startOf('day');
  const out: number[] = [];
  const everyDays = (step: number, accepts: (d: DateTime) => boolean) => {
    let anchor = startDay;
    while (!accepts(anchor) || atDay(anchor) > r.starts_at) anchor = anchor.minus({ days: 1 });
    for (let d = anchor; out.length === 0 || out[out.length - 1]! <= until; d = d.plus({ days: step })) out.push(atDay(d));
  };
  const length = r.shift_length ?? 1;
  switch (r.type) {
    case 'daily':
      everyDays(1, () => true);
      break;
    case 'weekly':
      everyDays(7, (d) => d.weekday === WEEKDAY[r.handoff_day!]);
      break;
    case 'biweekly':
      everyDays(14, (d) => d.weekday === WEEKDAY[r.handoff_day!]);
      break;
    case 'monthly': {
      const dayOf = (m: DateTime) => (r.handoff_day === 'last_day_of_month' ? m.endOf('month').startOf('day') : m.startOf('month'));
      let month = startDay.startOf('month');
      if (atDay(dayOf(month)) > r.starts_at) month = month.minus({ months: 1 });
      for (let m = month; out.length === 0 || out[out.length - 1]! <= until; m = m.plus({ months: 1 })) out.push(atDay(dayOf(m)));
      break;
    }
    case 'custom':
      if (r.shift_length_unit === 'days' || r.shift_length_unit === 'weeks')
        everyDays(r.shift_length_unit === 'weeks' ? 7 * length : length, () => true);
      else if (24 % length === 0) {
        // Wall clock: handoff_time + n·length on every local day.
        const all: number[] = [];
        for (let d = startDay.minus({ days: 1 }); all.length === 0 || all[all.length - 1]! <= until; d = d.plus({ days: 1 })) {
          for (let i = 0; i < 24 / length; i += 1) all.push(atDay(d, (hh * 60 + mm + i * length * 60) % 1440));
        }
        all.sort((a, b) => a - b);
        out.push(...all.slice(all.findLastIndex((h) => h <= r.starts_at)));
      } else {
        // Elapsed hours from handoff_time on the start's local day.
        const period = length * 3_600_000;
        const origin = atDay(startDay);
        for (
          let h = origin + Math.floor((r.starts_at - origin) / period) * period;
          out.length === 0 || out[out.length - 1]! <= until;
          h += period
        )
          out.push(h);
      }
  }
  return out;
}

/** Which turn of the rotation holds `t` (0: the one from its start), counted from the oracle's handoffs. */
export const turnAt = (list: readonly number[], startsAt: number, t: number) => list.filter((h) => h > startsAt && h <= t).length;
