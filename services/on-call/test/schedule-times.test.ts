import { activityIssues, rotationableIssues } from '../src/domain/schedules/schedule-rotations.schemas.js';
import { ianaZone, instant, timeOfDay, windowIssues } from '../src/domain/schedules/schedule-times.schemas.js';

const at = (issues: { pointer: string }[]) => issues.map((i) => i.pointer);
const w = (start_time: string, end_time: string) => ({ start_time, end_time });

describe('ianaZone', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['America/New_York', 'America/New_York'],
    ['Australia/Sydney', 'Australia/Sydney'],
    ['Etc/UTC', 'Etc/UTC'],
    ['UTC', 'UTC'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
  ])('takes %s as %s', (given, stored) => expect(ianaZone(given)).toBe(stored));

  it.each([
    '+01:00',
    '-05:00',
    'Mars/Olympus',
    '',
    ' Europe/Berlin',
    'Europe/Berlin/',
    '../etc/passwd',
    'Europe/Berlin\u0000',
    'x'.repeat(65),
  ])('refuses %j', (given) => expect(ianaZone(given)).toBeUndefined());
});

describe('times of day and instants', () => {
  it.each([
    ['09:00', '09:00'],
    ['09:00:00', '09:00'],
    ['23:59', '23:59'],
    ['00:00', '00:00'],
  ])('reads %s as %s', (given, stored) => {
    expect(timeOfDay.parse(given)).toBe(stored);
  });
  it.each(['24:00', '9:00', '09:00:30', '09:00Z', '09:00:00+02:00', '0900', ''])('refuses %j', (given) => {
    expect(timeOfDay.safeParse(given).success).toBe(false);
  });
  it('bounds instants to 1970–2199 and reads offsets', () => {
    expect(instant.parse('2026-10-25T02:30:00+02:00').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    for (const bad of [
      '0000-01-01T00:00:00Z',
      '1969-12-31T23:59:59Z',
      '2200-01-01T00:00:00Z',
      '2026-02-29T00:00:00Z',
      '2026-01-01T00:00:00',
    ]) {
      expect(instant.safeParse(bad).success).toBe(false);
    }
  });
});

describe('windowIssues', () => {
  it('takes ordered, touching windows and 00:00 as the end of the day', () => {
    expect(windowIssues([w('18:00', '00:00'), w('00:00', '06:00'), w('06:00', '07:00')], '/p')).toEqual([]);
  });
  it('refuses empty, reversed and overlapping windows with the pointer of the later one', () => {
    expect(at(windowIssues([w('09:00', '09:00')], '/p'))).toEqual(['/p/0/end_time']);
    expect(at(windowIssues([w('10:00', '09:00')], '/p'))).toEqual(['/p/0/end_time']);
    expect(at(windowIssues([w('12:00', '14:00'), w('08:00', '12:30')], '/p'))).toEqual(['/p/0/start_time']);
    expect(at(windowIssues([w('00:00', '00:00'), w('10:00', '11:00')], '/p'))).toEqual(['/p/1/start_time']);
  });
});

describe('rotationableIssues', () => {
  const A = '/data/attributes/schedule_rotationable_attributes';
  it.each([
    ['ScheduleDailyRotation', { handoff_time: '09:00' }],
    ['ScheduleWeeklyRotation', { handoff_time: '09:00', handoff_day: 'U' }],
    ['ScheduleBiweeklyRotation', { handoff_time: '09:00', handoff_day: 'R' }],
    ['ScheduleMonthlyRotation', { handoff_time: '09:00', handoff_day: 'last_day_of_month' }],
    ['ScheduleCustomRotation', { handoff_time: '00:30', shift_length: 8784, shift_length_unit: 'hours' }],
    ['ScheduleCustomRotation', { handoff_time: '00:30', shift_length: 52, shift_length_unit: 'weeks' }],
  ] as const)('takes %s %j', (type, attributes) => expect(rotationableIssues(type, attributes)).toEqual([]));

  it.each([
    ['ScheduleDailyRotation', {}, [`${A}/handoff_time`]],
    ['ScheduleDailyRotation', { handoff_time: '09:00', shift_length: 1 }, [`${A}/shift_length`]],
    ['ScheduleWeeklyRotation', { handoff_time: '09:00' }, [`${A}/handoff_day`]],
    ['ScheduleWeeklyRotation', { handoff_time: '09:00', handoff_day: 'last_day_of_month' }, [`${A}/handoff_day`]],
    ['ScheduleMonthlyRotation', { handoff_time: '09:00', handoff_day: 'M' }, [`${A}/handoff_day`]],
    ['ScheduleCustomRotation', { handoff_time: '09:00', shift_length: 53, shift_length_unit: 'weeks' }, [`${A}/shift_length`]],
    [
      'ScheduleCustomRotation',
      { handoff_time: '09:00', handoff_day: 'M' },
      [`${A}/shift_length`, `${A}/shift_length_unit`, `${A}/handoff_day`],
    ],
  ] as const)('refuses %s %j', (type, attributes, pointers) => expect(at(rotationableIssues(type, attributes))).toEqual(pointers));
});

describe('activityIssues', () => {
  const base = { active_all_week: true, active_days: [], active_time_type: 'all_day', active_time_attributes: [] };
  it('needs active days when not all week, and times for same_time', () => {
    expect(activityIssues(base)).toEqual([]);
    expect(activityIssues({ ...base, active_time_type: 'custom' })).toEqual([]);
    expect(at(activityIssues({ ...base, active_all_week: false }))).toEqual(['/data/attributes/active_days']);
    expect(activityIssues({ ...base, active_all_week: false, active_days: ['S'] })).toEqual([]);
    expect(at(activityIssues({ ...base, active_time_type: 'same_time' }))).toEqual(['/data/attributes/active_time_attributes']);
    expect(activityIssues({ ...base, active_time_type: 'same_time', active_time_attributes: [w('09:00', '17:00')] })).toEqual([]);
  });
});
