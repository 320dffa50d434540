import { IANAZone } from 'luxon';

/** A civil date; day arithmetic goes through UTC so it never meets a time zone. */
export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

export interface ClockTime {
  hour: number;
  minute: number;
  second: number;
}

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** `HH:MM[:SS]` as a clock time; throws on anything else (inputs are validated before). */
export function parseClock(text: string): ClockTime {
  const m = CLOCK.exec(text);
  if (!m) throw new Error(`not a time of day: ${text}`);
  return { hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3] ?? 0) };
}

const zones = new Map<string, IANAZone>();

/** The Luxon zone of an IANA name, created once (zone creation is the costly part). */
export function zoneOf(name: string): IANAZone {
  let zone = zones.get(name);
  if (!zone) {
    zone = IANAZone.create(name);
    if (!zone.isValid) throw new Error(`unknown time zone: ${name}`);
    zones.set(name, zone);
  }
  return zone;
}

// Luxon builds an Intl.DateTimeFormat per isValidZone call (~45 µs); a process meets few zone names.
const validity = new Map<string, boolean>();

export function isTimeZone(name: string): boolean {
  let valid = validity.get(name);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(name);
    validity.set(name, valid);
  }
  return valid;
}

export function addDays(date: CivilDate, days: number): CivilDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function addMonths(date: CivilDate, months: number): CivilDate {
  const index = date.year * 12 + (date.month - 1) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1, day: date.day };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** 1 = Monday … 7 = Sunday, as Luxon counts. */
export function weekdayOf(date: CivilDate): number {
  return ((new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7) + 1;
}

const DAY_MS = 86_400_000;
// The offset of each zone on each UTC day where it does not change that day (NaN where it does).
const dailyOffsets = new Map<string, number>();

/**
 * The zone's UTC offset in ms at an instant, from Luxon's zone data. Asking Luxon costs an
 * Intl formatting, so a UTC day whose first and last millisecond share an offset is
 * remembered as having it throughout (no zone changes its offset twice within a day);
 * on a day of change, every instant is asked.
 */
function offsetAt(zone: IANAZone, instant: number): number {
  const day = Math.floor(instant / DAY_MS);
  const key = `${zone.name}|${day}`;
  let offset = dailyOffsets.get(key);
  if (offset === undefined) {
    const first = zone.offset(day * DAY_MS);
    offset = first === zone.offset((day + 1) * DAY_MS - 1) ? first : NaN;
    if (dailyOffsets.size > 100_000) dailyOffsets.clear();
    dailyOffsets.set(key, offset);
  }
  return (Number.isNaN(offset) ? zone.offset(instant) : offset) * 60_000;
}

// Wall-clock times recur (every turn's handoff, every active window), so their instants are
// remembered; cleared when large, as the answers never change.
const instants = new Map<string, number>();

// Every zone's offset lies within ±15 h, so the instant of a wall-clock time lies within 15 h of it read as UTC.
const REACH_MS = 15 * 3_600_000;

/**
 * The instant of a wall-clock time in a zone, from the zone's offsets around it (Luxon's
 * zone data). A time repeated by a fall-back change takes its first occurrence; a time
 * skipped by a spring-forward change moves on by the gap (02:30 becomes 03:30). Unlike
 * DateTime.fromObject, whose first guess is today's offset, the answer does not depend on
 * the season the question is asked in.
 */
export function instantOf(date: CivilDate, clock: ClockTime, zone: IANAZone): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day, clock.hour, clock.minute, clock.second);
  const key = `${zone.name}|${wall}`;
  const known = instants.get(key);
  if (known !== undefined) return known;
  const before = offsetAt(zone, wall - REACH_MS);
  const after = offsetAt(zone, wall + REACH_MS);
  const valid = [wall - before, wall - after].filter((t) => offsetAt(zone, t) === wall - t);
  const out = valid.length ? Math.min(...valid) : wall - before;
  if (instants.size > 100_000) instants.clear();
  instants.set(key, out);
  return out;
}

/** The civil date and clock time of an instant in a zone. */
export function localOf(instant: number, zone: IANAZone): { date: CivilDate; clock: ClockTime } {
  const d = new Date(instant + offsetAt(zone, instant));
  return {
    date: { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() },
    clock: { hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() },
  };
}
