import { computeShifts } from '../../src/domain/shifts/index.js';
import { rotation } from './shift-fixtures.js';

const T = Date.parse;
const DAY = 86_400_000;
const start = T('2026-03-01T09:00:00Z');

const daily = (departures: { index: number; at: number }[]) =>
  rotation({
    id: 'r',
    type: 'daily',
    handoff_time: '09:00',
    time_zone: 'Etc/UTC',
    starts_at: start,
    members: [1, 2, 3],
    departures,
  });
const shifts = (departures: { index: number; at: number }[], days = 12) =>
  computeShifts({ rotations: [daily(departures)], overrides: [], from: start, to: start + days * DAY }).map((s) => [
    s.user_id,
    (s.starts_at - start) / 3_600_000,
    (s.ends_at - start) / 3_600_000,
  ]);

describe('turns after a member whose user was deleted leaves', () => {
  it('keeps the turns that began before, cuts the running one at the deletion, and deals later turns to the others from the next in order', () => {
    const before = shifts([]);
    // User 2 (index 1) deleted on day 4 at 21:00, during its own turn.
    const after = shifts([{ index: 1, at: start + 4 * DAY + 12 * 3_600_000 }]);
    expect(after.slice(0, 4)).toEqual(before.slice(0, 4));
    expect(after[4]).toEqual([2, 96, 108]);
    expect(after.slice(5).map(([u]) => u)).toEqual([3, 1, 3, 1, 3, 1, 3]);
  });

  it('handles two departures in turn, and a rotation left with no member has no shift after', () => {
    const both = shifts([
      { index: 0, at: start + 2 * DAY - 1 },
      { index: 2, at: start + 5 * DAY + 1 },
    ]);
    expect(both.map(([u]) => u)).toEqual([1, 2, 3, 2, 3, 2, 2, 2, 2, 2, 2, 2]);
    const none = shifts([
      { index: 0, at: start + DAY },
      { index: 1, at: start + DAY },
      { index: 2, at: start + DAY },
    ]);
    expect(none).toEqual([[1, 0, 24]]);
  });
});
