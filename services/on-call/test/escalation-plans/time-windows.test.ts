import fc from 'fast-check';
import { DateTime } from 'luxon';
import { withinBusinessHours, withinTimeRestrictions } from '../../src/domain/escalation-plans/time-windows.js';
import { ianaZone } from '../../src/domain/escalation-plans/zone-names.js';

// Monday 2026-11-23 in Berlin (UTC+1).
const berlin = (iso: string) => DateTime.fromISO(iso, { zone: 'Europe/Berlin' }).toJSDate();

describe('reference time zone names', () => {
  it("reads Rails' names as ActiveSupport maps them, IANA names as they are, and nothing else", () => {
    expect(ianaZone('Pacific Time (US & Canada)')).toBe('America/Los_Angeles');
    expect(ianaZone('Berlin')).toBe('Europe/Berlin');
    expect(ianaZone('Wellington')).toBe('Pacific/Auckland');
    expect(ianaZone('Europe/Paris')).toBe('Europe/Paris');
    expect(ianaZone('Mars/Olympus')).toBeNull();
    expect(ianaZone(null)).toBeNull();
  });
});

describe('path time restrictions', () => {
  const weekdays = [{ start_day: 'monday', start_time: '09:00', end_day: 'friday', end_time: '17:00' }];

  it('hold inside a weekly window in the path zone, not outside it', () => {
    expect(withinTimeRestrictions(weekdays, 'Berlin', berlin('2026-11-23T09:00')).holds).toBe(true);
    expect(withinTimeRestrictions(weekdays, 'Berlin', berlin('2026-11-25T23:00')).holds).toBe(true);
    expect(withinTimeRestrictions(weekdays, 'Berlin', berlin('2026-11-27T17:00')).holds).toBe(false);
    expect(withinTimeRestrictions(weekdays, 'Berlin', berlin('2026-11-23T08:59')).holds).toBe(false);
    // 08:30 UTC is 09:30 in Berlin: the zone decides, not UTC.
    expect(withinTimeRestrictions(weekdays, 'Europe/Berlin', new Date('2026-11-23T08:30:00Z')).holds).toBe(true);
    expect(withinTimeRestrictions(weekdays, 'UTC', new Date('2026-11-23T08:30:00Z')).holds).toBe(false);
  });

  it('run across the end of the week, hold always without restrictions, never in an unknown zone', () => {
    const weekend = [{ start_day: 'friday', start_time: '18:00', end_day: 'monday', end_time: '08:00' }];
    expect(withinTimeRestrictions(weekend, 'Berlin', berlin('2026-11-29T12:00')).holds).toBe(true);
    expect(withinTimeRestrictions(weekend, 'Berlin', berlin('2026-11-23T07:59')).holds).toBe(true);
    expect(withinTimeRestrictions(weekend, 'Berlin', berlin('2026-11-25T12:00')).holds).toBe(false);
    expect(withinTimeRestrictions([], null, new Date()).holds).toBe(true);
    expect(withinTimeRestrictions(weekdays, 'Mars/Olympus', new Date()).holds).toBe(false);
  });

  it('a window and the rest of the week split every instant between them (property)', () => {
    const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    const hhmm = fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
    fc.assert(
      fc.property(
        fc.constantFrom(...days),
        hhmm,
        fc.constantFrom(...days),
        hhmm,
        fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 0, 1) }),
        (sd, st, ed, et, t) => {
          fc.pre(sd !== ed || st !== et);
          const at = new Date(t);
          const inside = withinTimeRestrictions([{ start_day: sd, start_time: st, end_day: ed, end_time: et }], 'Europe/Berlin', at).holds;
          const outside = withinTimeRestrictions([{ start_day: ed, start_time: et, end_day: sd, end_time: st }], 'Europe/Berlin', at).holds;
          return inside !== outside;
        },
      ),
    );
  });
});

describe('time restrictions against the wall clock (property, across DST changes and midnight)', () => {
  const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  // Zones with DST (a 30-minute one in Lord Howe), one without, and one south of the equator.
  const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Santiago'];
  // The wall clock by Intl, not Luxon: Monday 0 and minutes after midnight.
  const formats = new Map(
    zones.map((zone) => [
      zone,
      new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    ]),
  );
  const wall = (at: Date, zone: string) => {
    const parts = Object.fromEntries(
      formats
        .get(zone)!
        .formatToParts(at)
        .map((p) => [p.type, p.value]),
    );
    return days.indexOf(parts.weekday!.toLowerCase()) * 1440 + Number(parts.hour) * 60 + Number(parts.minute);
  };

  const hhmm = fc
    .integer({ min: 0, max: 1439 })
    .map((m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  // Instants near the 2026 changes (Europe 29 March and 25 October, US 8 March and 1 November) and anywhere in 2024-2030.
  const changes = ['2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z', '2026-03-08T07:00:00Z', '2026-11-01T06:00:00Z'].map(Date.parse);
  const instant = fc.oneof(
    fc.tuple(fc.constantFrom(...changes), fc.integer({ min: -180, max: 180 })).map(([t, m]) => t + m * 60_000),
    fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 0, 1) }),
  );

  it('hold exactly when the local weekday and time fall from start to end, wrapping past Sunday midnight', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.nat(6), hhmm, fc.nat(6), hhmm, instant, (zone, sd, st, ed, et, t) => {
        const start = sd * 1440 + Number(st.slice(0, 2)) * 60 + Number(st.slice(3));
        const end = ed * 1440 + Number(et.slice(0, 2)) * 60 + Number(et.slice(3));
        const now = wall(new Date(t), zone);
        const week = 7 * 1440;
        const expected = start === end || (now - start + week) % week < (end - start + week) % week;
        const restriction = { start_day: days[sd]!, start_time: st, end_day: days[ed]!, end_time: et };
        return withinTimeRestrictions([restriction], zone, new Date(t)).holds === expected;
      }),
      { numRuns: 500 },
    );
  });
});

describe('business hours', () => {
  const hours = { time_zone: 'Eastern Time (US & Canada)', days: ['M', 'T', 'W', 'R', 'F'], start_time: '09:00', end_time: '17:00' };

  it('hold on a listed day between start and end in their zone', () => {
    const ny = (iso: string) => DateTime.fromISO(iso, { zone: 'America/New_York' }).toJSDate();
    expect(withinBusinessHours(hours, ny('2026-11-26T09:00'))).toBe(true); // Thursday (R)
    expect(withinBusinessHours(hours, ny('2026-11-26T17:00'))).toBe(false);
    expect(withinBusinessHours(hours, ny('2026-11-28T10:00'))).toBe(false); // Saturday
    expect(withinBusinessHours({ ...hours, days: ['S'] }, ny('2026-11-28T10:00'))).toBe(true);
    expect(withinBusinessHours({ ...hours, days: ['U'] }, ny('2026-11-29T10:00'))).toBe(true);
  });

  it('run past midnight when they end before they start, and never hold incomplete', () => {
    const night = { ...hours, days: ['F'], start_time: '22:00', end_time: '06:00' };
    const ny = (iso: string) => DateTime.fromISO(iso, { zone: 'America/New_York' }).toJSDate();
    expect(withinBusinessHours(night, ny('2026-11-27T23:00'))).toBe(true);
    expect(withinBusinessHours(night, ny('2026-11-28T05:59'))).toBe(true);
    expect(withinBusinessHours(night, ny('2026-11-27T05:00'))).toBe(false);
    expect(withinBusinessHours(null, new Date())).toBe(false);
    expect(withinBusinessHours({ ...hours, time_zone: null }, new Date())).toBe(false);
    expect(withinBusinessHours({ ...hours, days: [] }, new Date())).toBe(false);
  });
});
