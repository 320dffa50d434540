import { DateTime, IANAZone } from 'luxon';

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

export function isClock(text: string): boolean {
  return CLOCK.test(text);
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

export function isTimeZone(name: string): boolean {
  return IANAZone.isValidZone(name);
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

/**
 * The instant of a wall-clock time in a zone. A time skipped by a spring-forward change
 * moves on by the gap; a repeated one takes its first occurrence (Luxon's rules).
 */
export function instantOf(date: CivilDate, clock: ClockTime, zone: IANAZone): number {
  return DateTime.fromObject({ ...date, ...clock, millisecond: 0 }, { zone }).toMillis();
}

/** The civil date and clock time of an instant in a zone. */
export function localOf(instant: number, zone: IANAZone): { date: CivilDate; clock: ClockTime } {
  const dt = DateTime.fromMillis(instant, { zone });
  return { date: { year: dt.year, month: dt.month, day: dt.day }, clock: { hour: dt.hour, minute: dt.minute, second: dt.second } };
}
