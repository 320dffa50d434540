import { computeShifts, type RotationSpec } from '../../src/domain/shifts/index.js';
import { at, hours, iso, rotation } from './shift-fixtures.js';

const shiftsOf = (r: RotationSpec, from: number, to: number) => computeShifts({ rotations: [r], overrides: [], from, to });

/** The shift holding `instant`, with its length in hours and its start as a wall-clock time. */
function shiftAt(r: RotationSpec, instant: number) {
  const [shift] = shiftsOf(r, instant, instant + 1);
  return shift!;
}

describe('the hand-computed month: weekly rotation of three users in Europe/Berlin across the end of October 2026', () => {
  // Monday 09:00 handoffs from Monday 28 September; DST ends Sunday 25 October 03:00 CEST -> 02:00 CET.
  const weekly = rotation({
    type: 'weekly',
    handoff_day: 'M',
    time_zone: 'Europe/Berlin',
    starts_at: at('2026-09-28T09:00', 'Europe/Berlin'),
  });

  it('gives the table, the shifts crossing either edge whole, the one across the change 169 hours', () => {
    const table = shiftsOf(weekly, at('2026-10-01T00:00', 'Europe/Berlin'), at('2026-11-01T00:00', 'Europe/Berlin')).map((s) => [
      s.user_id,
      iso(s.starts_at),
      iso(s.ends_at),
      hours(s),
    ]);
    expect(table).toEqual([
      [1, '2026-09-28T07:00:00Z', '2026-10-05T07:00:00Z', 168],
      [2, '2026-10-05T07:00:00Z', '2026-10-12T07:00:00Z', 168],
      [3, '2026-10-12T07:00:00Z', '2026-10-19T07:00:00Z', 168],
      [1, '2026-10-19T07:00:00Z', '2026-10-26T08:00:00Z', 169],
      [2, '2026-10-26T08:00:00Z', '2026-11-02T08:00:00Z', 168],
    ]);
  });
});

type Case = [
  name: string,
  spec: Partial<RotationSpec> & Pick<RotationSpec, 'type'>,
  zone: string,
  start: string,
  probe: string,
  expected: { start: string; hours: number },
];

// Each zone's 2026 changes: Berlin 29 Mar (+1h) and 25 Oct (-1h); New York 8 Mar (+1h) and 1 Nov (-1h);
// Sydney 5 Apr (-1h, end of summer time) and 4 Oct (+1h). `probe` is a wall-clock time inside the shift.
const CASES: Case[] = [
  [
    'daily, Berlin spring',
    { type: 'daily' },
    'Europe/Berlin',
    '2026-03-01T09:00',
    '2026-03-29T08:00',
    { start: '2026-03-28T08:00:00Z', hours: 23 },
  ],
  [
    'daily, Berlin autumn',
    { type: 'daily' },
    'Europe/Berlin',
    '2026-10-01T09:00',
    '2026-10-25T08:00',
    { start: '2026-10-24T07:00:00Z', hours: 25 },
  ],
  [
    'daily, New York spring',
    { type: 'daily', handoff_time: '00:00' },
    'America/New_York',
    '2026-03-01T00:00',
    '2026-03-08T12:00',
    { start: '2026-03-08T05:00:00Z', hours: 23 },
  ],
  [
    'daily, New York autumn',
    { type: 'daily', handoff_time: '00:00' },
    'America/New_York',
    '2026-10-01T00:00',
    '2026-11-01T12:00',
    { start: '2026-11-01T04:00:00Z', hours: 25 },
  ],
  [
    'daily, Sydney autumn',
    { type: 'daily' },
    'Australia/Sydney',
    '2026-03-01T09:00',
    '2026-04-05T08:00',
    { start: '2026-04-03T22:00:00Z', hours: 25 },
  ],
  [
    'daily, Sydney spring',
    { type: 'daily' },
    'Australia/Sydney',
    '2026-09-01T09:00',
    '2026-10-04T08:00',
    { start: '2026-10-02T23:00:00Z', hours: 23 },
  ],
  [
    'weekly, Berlin spring',
    { type: 'weekly', handoff_day: 'M' },
    'Europe/Berlin',
    '2026-03-02T09:00',
    '2026-03-29T12:00',
    { start: '2026-03-23T08:00:00Z', hours: 167 },
  ],
  [
    'weekly, Berlin autumn',
    { type: 'weekly', handoff_day: 'M' },
    'Europe/Berlin',
    '2026-10-05T09:00',
    '2026-10-25T12:00',
    { start: '2026-10-19T07:00:00Z', hours: 169 },
  ],
  [
    'weekly, New York spring',
    { type: 'weekly', handoff_day: 'F', handoff_time: '17:00' },
    'America/New_York',
    '2026-02-06T17:00',
    '2026-03-08T12:00',
    { start: '2026-03-06T22:00:00Z', hours: 167 },
  ],
  [
    'weekly, New York autumn',
    { type: 'weekly', handoff_day: 'F', handoff_time: '17:00' },
    'America/New_York',
    '2026-10-02T17:00',
    '2026-11-01T12:00',
    { start: '2026-10-30T21:00:00Z', hours: 169 },
  ],
  [
    'weekly, Sydney autumn',
    { type: 'weekly', handoff_day: 'M' },
    'Australia/Sydney',
    '2026-03-02T09:00',
    '2026-04-05T12:00',
    { start: '2026-03-29T22:00:00Z', hours: 169 },
  ],
  [
    'weekly, Sydney spring',
    { type: 'weekly', handoff_day: 'M' },
    'Australia/Sydney',
    '2026-09-07T09:00',
    '2026-10-04T12:00',
    { start: '2026-09-27T23:00:00Z', hours: 167 },
  ],
  [
    'biweekly, Berlin autumn',
    { type: 'biweekly', handoff_day: 'M' },
    'Europe/Berlin',
    '2026-10-12T09:00',
    '2026-10-25T12:00',
    { start: '2026-10-12T07:00:00Z', hours: 337 },
  ],
  [
    'monthly first day, Berlin spring',
    { type: 'monthly', handoff_day: 'first_day_of_month' },
    'Europe/Berlin',
    '2026-01-01T09:00',
    '2026-03-29T12:00',
    { start: '2026-03-01T08:00:00Z', hours: 743 },
  ],
  [
    'monthly first day, Berlin autumn',
    { type: 'monthly', handoff_day: 'first_day_of_month' },
    'Europe/Berlin',
    '2026-01-01T09:00',
    '2026-10-25T12:00',
    { start: '2026-10-01T07:00:00Z', hours: 745 },
  ],
  [
    'monthly last day, New York spring',
    { type: 'monthly', handoff_day: 'last_day_of_month', handoff_time: '12:00' },
    'America/New_York',
    '2026-01-31T12:00',
    '2026-03-08T12:00',
    { start: '2026-02-28T17:00:00Z', hours: 743 },
  ],
  [
    'monthly last day, New York autumn',
    { type: 'monthly', handoff_day: 'last_day_of_month', handoff_time: '12:00' },
    'America/New_York',
    '2026-01-31T12:00',
    '2026-11-01T12:00',
    { start: '2026-10-31T16:00:00Z', hours: 721 },
  ],
  [
    'monthly first day, Sydney autumn',
    { type: 'monthly', handoff_day: 'first_day_of_month' },
    'Australia/Sydney',
    '2026-01-01T09:00',
    '2026-04-05T12:00',
    { start: '2026-03-31T22:00:00Z', hours: 721 },
  ],
  [
    'monthly first day, Sydney spring',
    { type: 'monthly', handoff_day: 'first_day_of_month' },
    'Australia/Sydney',
    '2026-01-01T09:00',
    '2026-10-04T12:00',
    { start: '2026-09-30T23:00:00Z', hours: 743 },
  ],
  // Hourly custom rotations whose length divides 24 hand off on the wall clock (handoff_time + n·length each day): the shift across the change is an hour shorter or longer.
  [
    'custom 6 hours, Berlin spring',
    { type: 'custom', shift_length: 6, shift_length_unit: 'hours', handoff_time: '00:00' },
    'Europe/Berlin',
    '2026-03-29T00:00',
    '2026-03-29T05:00',
    { start: '2026-03-28T23:00:00Z', hours: 5 },
  ],
  [
    'custom 6 hours, Berlin autumn',
    { type: 'custom', shift_length: 6, shift_length_unit: 'hours', handoff_time: '00:00' },
    'Europe/Berlin',
    '2026-10-25T00:00',
    '2026-10-25T04:00',
    { start: '2026-10-24T22:00:00Z', hours: 7 },
  ],
  [
    'custom 4 hours, New York spring',
    { type: 'custom', shift_length: 4, shift_length_unit: 'hours', handoff_time: '00:00' },
    'America/New_York',
    '2026-03-08T00:00',
    '2026-03-08T03:30',
    { start: '2026-03-08T05:00:00Z', hours: 3 },
  ],
  [
    'custom 4 hours, New York autumn',
    { type: 'custom', shift_length: 4, shift_length_unit: 'hours', handoff_time: '00:00' },
    'America/New_York',
    '2026-11-01T00:00',
    '2026-11-01T03:30',
    { start: '2026-11-01T04:00:00Z', hours: 5 },
  ],
  [
    'custom 12 hours, Sydney autumn',
    { type: 'custom', shift_length: 12, shift_length_unit: 'hours', handoff_time: '08:00' },
    'Australia/Sydney',
    '2026-04-04T08:00',
    '2026-04-05T01:00',
    { start: '2026-04-04T09:00:00Z', hours: 13 },
  ],
  [
    'custom 12 hours, Sydney spring',
    { type: 'custom', shift_length: 12, shift_length_unit: 'hours', handoff_time: '08:00' },
    'Australia/Sydney',
    '2026-10-03T08:00',
    '2026-10-04T06:00',
    { start: '2026-10-03T10:00:00Z', hours: 11 },
  ],
  // A length that does not divide 24 has no daily grid: elapsed hours, 5 stay 5.
  [
    'custom 5 hours, Berlin spring (elapsed)',
    { type: 'custom', shift_length: 5, shift_length_unit: 'hours', handoff_time: '00:00' },
    'Europe/Berlin',
    '2026-03-29T00:00',
    '2026-03-29T05:00',
    { start: '2026-03-28T23:00:00Z', hours: 5 },
  ],
  [
    'custom 2 days, Sydney spring',
    { type: 'custom', shift_length: 2, shift_length_unit: 'days', handoff_time: '09:00' },
    'Australia/Sydney',
    '2026-10-03T09:00',
    '2026-10-04T12:00',
    { start: '2026-10-02T23:00:00Z', hours: 47 },
  ],
];

describe('fixed cases across both daylight-saving changes of Europe/Berlin, America/New_York and Australia/Sydney', () => {
  it.each(CASES)('%s', (_name, spec, zone, start, probe, expected) => {
    const r = rotation({ ...spec, time_zone: zone, starts_at: at(start, zone) });
    const shift = shiftAt(r, at(probe, zone));
    expect({ start: iso(shift.starts_at), hours: hours(shift) }).toEqual(expected);
  });

  it('keeps calendar handoffs on the wall clock through the change (daily 09:00 Berlin, March)', () => {
    const r = rotation({ type: 'daily', time_zone: 'Europe/Berlin', starts_at: at('2026-03-27T09:00', 'Europe/Berlin') });
    const starts = shiftsOf(r, r.starts_at, at('2026-03-31T09:00', 'Europe/Berlin')).map((s) => iso(s.starts_at));
    expect(starts).toEqual(['2026-03-27T08:00:00Z', '2026-03-28T08:00:00Z', '2026-03-29T07:00:00Z', '2026-03-30T07:00:00Z']);
  });

  it('keeps hourly handoffs on handoff_time + n·length local after the change (6 hours from 03:00, Berlin, March)', () => {
    const r = rotation({
      type: 'custom',
      shift_length: 6,
      shift_length_unit: 'hours',
      handoff_time: '03:00',
      time_zone: 'Europe/Berlin',
      starts_at: at('2026-03-28T03:00', 'Europe/Berlin'),
    });
    const local = shiftsOf(r, r.starts_at, at('2026-03-31T03:00', 'Europe/Berlin')).map((s) =>
      new Date(s.starts_at).toLocaleTimeString('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' }),
    );
    expect(local).toEqual(Array.from({ length: 12 }, (_, i) => ['03:00', '09:00', '15:00', '21:00'][i % 4]));
  });

  it('gives the 1-hour turn that spring-forward empties (02:00 local) no shift: its member waits for the next round, the others keep their order (Berlin, 29 March)', () => {
    const r = rotation({
      type: 'custom',
      shift_length: 1,
      shift_length_unit: 'hours',
      handoff_time: '00:00',
      time_zone: 'Europe/Berlin',
      starts_at: at('2026-03-29T00:00', 'Europe/Berlin'),
      members: [1, 2, 3],
    });
    const shifts = shiftsOf(r, r.starts_at, at('2026-03-29T05:00', 'Europe/Berlin'));
    expect(shifts.map((s) => [iso(s.starts_at), hours(s), s.user_id])).toEqual([
      ['2026-03-28T23:00:00Z', 1, 1],
      ['2026-03-29T00:00:00Z', 1, 2],
      ['2026-03-29T01:00:00Z', 1, 1],
      ['2026-03-29T02:00:00Z', 1, 2],
    ]);
  });

  it('hands off at the first valid time when the handoff falls in the spring-forward gap (02:30, New York, 8 March)', () => {
    const r = rotation({
      type: 'daily',
      handoff_time: '02:30',
      time_zone: 'America/New_York',
      starts_at: at('2026-03-06T02:30', 'America/New_York'),
    });
    const starts = shiftsOf(r, r.starts_at, at('2026-03-09T12:00', 'America/New_York')).map((s) => iso(s.starts_at));
    expect(starts).toEqual(['2026-03-06T07:30:00Z', '2026-03-07T07:30:00Z', '2026-03-08T07:30:00Z', '2026-03-09T06:30:00Z']);
  });
});
