import { activeWeekOf, computeShifts } from '../../src/domain/shifts/index.js';
import { at, iso, rotation } from './shift-fixtures.js';

const BERLIN = 'Europe/Berlin';
// Office hours on weekdays, position 1; around the clock daily, position 2 (from 1 October: user 7 has the odd days).
const office = rotation({
  id: 'office',
  position: 1,
  type: 'weekly',
  handoff_day: 'M',
  time_zone: BERLIN,
  starts_at: at('2026-10-05T09:00', BERLIN),
  members: [1],
  active: activeWeekOf({
    active_all_week: false,
    active_days: ['M', 'T', 'W', 'R', 'F'],
    active_time_type: 'same_time',
    active_time_attributes: [{ start_time: '09:00', end_time: '17:00' }],
  }),
});
const allDay = rotation({
  id: 'all-day',
  position: 2,
  type: 'daily',
  handoff_time: '00:00',
  time_zone: BERLIN,
  starts_at: at('2026-10-01T00:00', BERLIN),
  members: [7, 8],
});
const table = (shifts: ReturnType<typeof computeShifts>) => shifts.map((s) => [s.rotation_id, s.user_id, iso(s.starts_at), iso(s.ends_at)]);

describe('layers', () => {
  it('the lower position wins where rotations overlap; the other keeps only the time it leaves', () => {
    const shifts = computeShifts({
      rotations: [allDay, office],
      overrides: [],
      from: at('2026-10-09T00:00', BERLIN),
      to: at('2026-10-10T00:00', BERLIN),
    });
    expect(table(shifts)).toEqual([
      ['all-day', 7, '2026-10-08T22:00:00Z', '2026-10-09T07:00:00Z'],
      ['office', 1, '2026-10-09T07:00:00Z', '2026-10-09T15:00:00Z'],
      ['all-day', 7, '2026-10-09T15:00:00Z', '2026-10-09T22:00:00Z'],
    ]);
  });

  it('swapping positions swaps the winner', () => {
    const shifts = computeShifts({
      rotations: [
        { ...allDay, position: 1 },
        { ...office, position: 2 },
      ],
      overrides: [],
      from: at('2026-10-09T00:00', BERLIN),
      to: at('2026-10-10T00:00', BERLIN),
    });
    expect(table(shifts)).toEqual([['all-day', 7, '2026-10-08T22:00:00Z', '2026-10-09T22:00:00Z']]);
  });

  it('an override cuts both layers and is returned whole', () => {
    const override = {
      id: 'o1',
      schedule_id: 's1',
      user_id: 42,
      starts_at: at('2026-10-09T16:00', BERLIN),
      ends_at: at('2026-10-09T20:00', BERLIN),
    };
    const shifts = computeShifts({
      rotations: [allDay, office],
      overrides: [override],
      from: at('2026-10-09T00:00', BERLIN),
      to: at('2026-10-10T00:00', BERLIN),
    });
    expect(table(shifts)).toEqual([
      ['all-day', 7, '2026-10-08T22:00:00Z', '2026-10-09T07:00:00Z'],
      ['office', 1, '2026-10-09T07:00:00Z', '2026-10-09T14:00:00Z'],
      [null, 42, '2026-10-09T14:00:00Z', '2026-10-09T18:00:00Z'],
      ['all-day', 7, '2026-10-09T18:00:00Z', '2026-10-09T22:00:00Z'],
    ]);
    expect(shifts[2]).toMatchObject({ id: 'o1', is_override: true, override_id: 'o1' });
  });

  it('a rotation ends at its end_time and starts no turn after it', () => {
    const bounded = { ...allDay, ends_at: at('2026-10-09T12:00', BERLIN) };
    const shifts = computeShifts({
      rotations: [bounded],
      overrides: [],
      from: at('2026-10-09T00:00', BERLIN),
      to: at('2026-10-11T00:00', BERLIN),
    });
    expect(table(shifts)).toEqual([['all-day', 7, '2026-10-08T22:00:00Z', '2026-10-09T10:00:00Z']]);
  });
});
