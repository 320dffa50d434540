import fc from 'fast-check';
import { DateTime } from 'luxon';
import { instantOf, localOf, zoneOf } from '../../src/domain/shifts/local-time.js';

const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Australia/Sydney',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'Etc/UTC',
];
const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) });

describe("local time (the engine's remembered offsets agree with Luxon's DateTime everywhere)", () => {
  it('localOf gives the wall clock DateTime gives', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), instant, (zone, t) => {
        const dt = DateTime.fromMillis(t, { zone });
        expect(localOf(t, zoneOf(zone))).toEqual({
          date: { year: dt.year, month: dt.month, day: dt.day },
          clock: { hour: dt.hour, minute: dt.minute, second: dt.second },
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('instantOf gives the instant DateTime.fromObject gives wherever the wall-clock time occurs once', () => {
    const wall = fc.record({
      year: fc.integer({ min: 2020, max: 2029 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 28 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.constantFrom(0, 15, 30, 45, 59),
      second: fc.constantFrom(0, 30),
    });
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), wall, (zone, w) => {
        const dt = DateTime.fromObject({ ...w, millisecond: 0 }, { zone });
        // Repeated times: Luxon's choice depends on today's offset; the engine's is fixed (below).
        const repeated =
          dt.minus({ hours: 1 }).hour === dt.hour ||
          dt.plus({ hours: 1 }).hour === dt.hour ||
          (dt.minus({ minutes: 30 }).minute === dt.minute && dt.minus({ minutes: 30 }).hour === dt.hour);
        fc.pre(!repeated);
        expect(
          instantOf({ year: w.year, month: w.month, day: w.day }, { hour: w.hour, minute: w.minute, second: w.second }, zoneOf(zone)),
        ).toBe(dt.toMillis());
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    // Skipped by spring forward: moved on by the gap.
    ['Europe/Berlin', '2026-03-29T02:30', '2026-03-29T01:30:00.000Z'],
    ['America/New_York', '2026-03-08T02:30', '2026-03-08T07:30:00.000Z'],
    ['Australia/Sydney', '2026-10-04T02:30', '2026-10-03T16:30:00.000Z'],
    // Repeated by fall back: the first occurrence, in summer time.
    ['Europe/Berlin', '2026-10-25T02:30', '2026-10-25T00:30:00.000Z'],
    ['America/New_York', '2026-11-01T01:30', '2026-11-01T05:30:00.000Z'],
    ['Australia/Sydney', '2026-04-05T02:30', '2026-04-04T15:30:00.000Z'],
  ])('%s %s is %s', (zone, local, expected) => {
    const w = DateTime.fromISO(local, { zone: 'utc' });
    expect(
      new Date(
        instantOf({ year: w.year, month: w.month, day: w.day }, { hour: w.hour, minute: w.minute, second: 0 }, zoneOf(zone)),
      ).toISOString(),
    ).toBe(expected);
  });
});
