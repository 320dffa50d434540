import {
  planShifts,
  TooManyShiftsError,
  workBudget,
  computeShifts,
  type ActiveWeek,
  type RotationSpec,
} from '../../src/domain/shifts/index.js';
import { MAX_WORK, WORK_PER_ROTATION } from '../../src/domain/schedules/shifts.source.js';
import { rotation } from './shift-fixtures.js';

const T = Date.parse;
const halfHours = Array.from({ length: 24 }, (_, h) => ({
  start_time: `${String(h).padStart(2, '0')}:00`,
  end_time: `${String(h).padStart(2, '0')}:30`,
}));
const everyHalfHour: ActiveWeek = { S: halfHours, M: halfHours, T: halfHours, W: halfHours, R: halfHours, F: halfHours, U: halfHours };
const YEAR = { from: T('2026-01-01T00:00:00Z'), to: T('2027-01-02T00:00:00Z') };

/** The reviewer's shapes: rotations of 24 active windows a day, 20 to a schedule. */
const rotations = (n: number, shape: Partial<RotationSpec>): RotationSpec[] =>
  Array.from({ length: n }, (_, i) =>
    rotation({
      id: `r${i}`,
      schedule_id: `s${Math.floor(i / 20)}`,
      position: i % 20,
      time_zone: 'Europe/Berlin',
      starts_at: T('2026-01-01T00:00:00Z') + (i % 20) * 1_800_000,
      type: 'daily',
      handoff_time: '00:00',
      active: everyHalfHour,
      ...shape,
    }),
  );

describe('the work budget', () => {
  it.each([
    ['260 daily rotations of 24 windows a day over a year', rotations(260, {})],
    ['1,000 monthly rotations of 24 windows a day over a year', rotations(1000, { type: 'monthly', handoff_day: 'first_day_of_month' })],
    [
      '5 monthly rotations of 24 windows a day (few turns, many windows)',
      rotations(5, { type: 'monthly', handoff_day: 'first_day_of_month' }),
    ],
  ])("refuses %s having spent no more than the budget (plus one turn's pieces)", async (_, list) => {
    const budget = workBudget(MAX_WORK);
    expect(() => computeShifts({ rotations: list, overrides: [], ...YEAR, budget })).toThrow(TooManyShiftsError);
    // Charged before the work it pays for: what overran is at most one day's windows.
    expect(budget.left).toBeLessThan(0);
    expect(budget.left).toBeGreaterThanOrEqual(-24);
    const started = performance.now();
    await expect(planShifts({ rotations: list, ...YEAR, maxWork: MAX_WORK, overrides: async () => [] })).rejects.toBeInstanceOf(
      TooManyShiftsError,
    );
    // Generous: ~0.3 s measured on a 2-core machine; the bound asserted is the budget above.
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('charges the window computation before the overrides are read', async () => {
    let read = false;
    await expect(
      planShifts({
        rotations: rotations(1000, { type: 'monthly', handoff_day: 'first_day_of_month' }),
        ...YEAR,
        maxWork: 1000,
        overrides: async () => {
          read = true;
          return [];
        },
      }),
    ).rejects.toBeInstanceOf(TooManyShiftsError);
    expect(read).toBe(false);
  });

  it('answers a year of one such rotation within the budget, the same as unbounded', async () => {
    const list = rotations(1, {});
    const budget = workBudget(MAX_WORK);
    const bounded = computeShifts({ rotations: list, overrides: [], ...YEAR, budget });
    expect(bounded).toEqual(computeShifts({ rotations: list, overrides: [], ...YEAR }));
    // Every half hour of the year but those DST skips or repeats.
    expect(bounded.length).toBeGreaterThan(366 * 24 - 3);
    expect(MAX_WORK - budget.left).toBeGreaterThan(2 * 366 * 24);
  });

  it('skips a rotation whose time zone the runtime does not know, and computes the rest', async () => {
    const skipped: string[] = [];
    const shifts = await planShifts({
      rotations: [
        rotation({ id: 'bad', type: 'daily', time_zone: 'Mars/Olympus_Mons', starts_at: YEAR.from }),
        rotation({ id: 'good', schedule_id: 's2', type: 'daily', time_zone: 'Etc/UTC', starts_at: YEAR.from }),
      ],
      from: YEAR.from,
      to: YEAR.from + 86_400_000,
      overrides: async () => [],
      skipped: (r) => skipped.push(r.id),
    });
    expect(skipped).toEqual(['bad']);
    expect(new Set(shifts.map((s) => s.rotation_id))).toEqual(new Set(['good']));
  });
});

describe('scheduler mode (failed given)', () => {
  it("gives each override-only schedule its own budget: one schedule's overrides never suppress another's shifts", async () => {
    const now = T('2026-07-01T12:00:00Z');
    const many = (sid: string) =>
      Array.from({ length: 9000 }, (_, i) => ({
        id: `${sid}-o${i}`,
        schedule_id: sid,
        user_id: 1,
        starts_at: now - 30 * 86_400_000 + i * 300_000,
        ends_at: now - 30 * 86_400_000 + i * 300_000 + 240_000,
        created_at: i,
      }));
    const b = { id: 'B-o', schedule_id: 'B', user_id: 7, starts_at: now - 30_000, ends_at: now + 3_600_000, created_at: 1 };
    const failed: string[] = [];
    const shifts = await planShifts({
      rotations: [],
      from: now - 60_000,
      to: now + 1,
      maxWork: 20_000,
      overrides: async () => [...many('A'), ...many('C'), ...many('D'), b],
      failed: (id) => failed.push(id),
    });
    expect(failed).toEqual([]);
    expect(shifts.filter((s) => s.schedule_id === 'B').map((s) => s.user_id)).toEqual([7]);
  });
});

describe('a short look at long turns', () => {
  const oneWindow: ActiveWeek = Object.fromEntries(
    (['S', 'M', 'T', 'W', 'R', 'F', 'U'] as const).map((d) => [d, [{ start_time: '09:00', end_time: '17:00' }]]),
  );
  const allDay: ActiveWeek = Object.fromEntries(
    (['S', 'M', 'T', 'W', 'R', 'F', 'U'] as const).map((d) => [d, [{ start_time: '00:00', end_time: '00:00' }]]),
  );
  // All day every day makes each turn one 52-week piece, whole in the answer: layering it
  // computes the turn's days once (364 a rotation), still far below a schedule's 20,000.
  it.each([
    ['a 9-to-5 window', oneWindow, 2_000],
    ['all day every day (one stretch the whole turn)', allDay, 10_000],
  ])('52-week turns with %s: a minute costs little, and gives the pieces a long range gives', (_, active, bound) => {
    const list = rotations(20, { type: 'custom', shift_length: 52, shift_length_unit: 'weeks', handoff_time: '03:00', active });
    const from = T('2026-07-01T12:00:00Z');
    const budget = workBudget(MAX_WORK);
    const short = computeShifts({ rotations: list, overrides: [], from, to: from + 60_000, budget });
    expect(MAX_WORK - budget.left).toBeLessThan(bound);
    const long = computeShifts({ rotations: list, overrides: [], from: from - 7 * 86_400_000, to: from + 7 * 86_400_000 });
    expect(short.length).toBeGreaterThan(0);
    for (const s of short) expect(long).toContainEqual(s);
  });
});

describe('the request budget', () => {
  it('answers a 1-hour look at a team at the limits (500 schedules × 20 daily rotations)', async () => {
    const list = Array.from({ length: 10_000 }, (_, i) =>
      rotation({
        id: `r${i}`,
        schedule_id: `s${Math.floor(i / 20)}`,
        position: i % 20,
        type: 'daily',
        time_zone: 'Europe/Berlin',
        handoff_time: `${String(i % 24).padStart(2, '0')}:00`,
        starts_at: T('2026-01-01T00:00:00Z') + i * 61_000,
      }),
    );
    const from = T('2026-06-01T00:00:00Z');
    const shifts = await planShifts({
      rotations: list,
      from,
      to: from + 3_600_000,
      maxWork: MAX_WORK + WORK_PER_ROTATION * list.length,
      overrides: async () => [],
    });
    expect(shifts.length).toBeGreaterThan(0);
  });
});

describe('reading overrides for a request', () => {
  it('reads no more than the budget left can pay for, and charges each row read', async () => {
    const from = T('2026-06-01T00:00:00Z');
    const limits: (number | undefined)[] = [];
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: `o${i}`,
        schedule_id: 's',
        user_id: 1,
        starts_at: from + i * 60_000,
        ends_at: from + i * 60_000 + 30_000,
      }));
    await expect(
      planShifts({
        rotations: [],
        from,
        to: from + 86_400_000,
        maxWork: 100,
        overrides: async (_lo, _hi, limit) => {
          limits.push(limit);
          return rows(limit ?? 1000);
        },
      }),
    ).rejects.toBeInstanceOf(TooManyShiftsError);
    expect(limits).toEqual([101]);
    // 40 overrides read (40 units) and their 40 pieces fit in 100.
    expect(await planShifts({ rotations: [], from, to: from + 86_400_000, maxWork: 100, overrides: async () => rows(40) })).toHaveLength(
      40,
    );
  });
});
