import fc from 'fast-check';
import {
  computeShifts,
  TooManyShiftsError,
  workBudget,
  type ActiveWeek,
  type OverrideSpec,
  type RotationSpec,
  type Shift,
} from '../../src/domain/shifts/index.js';
import { activeIntervals } from '../../src/domain/shifts/active-time.js';
import { handoffs, turnAt } from './handoff-oracle.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = Date.UTC(2025, 0, 1);
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Etc/UTC', 'Asia/Kolkata'];
const DAYS = ['S', 'M', 'T', 'W', 'R', 'F', 'U'] as const;

const clock = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const instant = fc.integer({ min: 0, max: 3 * 365 }).chain((d) => fc.integer({ min: 0, max: DAY - 1 }).map((ms) => BASE + d * DAY + ms));
const window = fc.record({ start_time: clock, end_time: clock });
const week: fc.Arbitrary<ActiveWeek | null> = fc.option(
  fc.dictionary(fc.constantFrom(...DAYS), fc.array(window, { minLength: 1, maxLength: 2 }), { minKeys: 1 }) as fc.Arbitrary<ActiveWeek>,
  { freq: 2 },
);

const cadence = fc.oneof(
  fc.record({ type: fc.constant('daily' as const) }),
  fc.record({ type: fc.constantFrom('weekly' as const, 'biweekly' as const), handoff_day: fc.constantFrom(...DAYS) }),
  fc.record({ type: fc.constant('monthly' as const), handoff_day: fc.constantFrom('first_day_of_month', 'last_day_of_month') }),
  fc.record({
    type: fc.constant('custom' as const),
    shift_length: fc.integer({ min: 1, max: 30 }),
    shift_length_unit: fc.constantFrom('hours' as const, 'days' as const, 'weeks' as const),
  }),
);

function rotationArb(id: string, schedule = 's1'): fc.Arbitrary<RotationSpec> {
  return fc
    .record({
      cadence,
      time_zone: fc.constantFrom(...ZONES),
      handoff_time: clock,
      starts_at: instant,
      position: fc.integer({ min: 0, max: 5 }),
      lasts: fc.option(fc.integer({ min: 1, max: 400 }).map((d) => d * DAY)),
      members: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }),
      active: week,
    })
    .map(({ cadence: c, lasts, ...r }) => ({
      id,
      schedule_id: schedule,
      handoff_day: null,
      shift_length: null,
      shift_length_unit: null,
      ...c,
      ...r,
      ends_at: lasts === null ? null : r.starts_at + lasts,
    }));
}

const range = fc.tuple(instant, fc.integer({ min: 1, max: 40 * 24 })).map(([from, h]) => ({ from, to: from + h * HOUR }));
// Few creation times, so that ties (decided by id) occur.
const overrideArb = (id: string) =>
  fc
    .record({
      starts_at: instant,
      h: fc.integer({ min: 1, max: 96 }),
      user_id: fc.integer({ min: 100, max: 102 }),
      created_at: fc.integer({ min: 0, max: 2 }),
    })
    .map(({ h, ...o }) => ({ id, schedule_id: 's1', ...o, ends_at: o.starts_at + h * HOUR }));

/** A rotation and a range starting at most 60 days after it (the oracle enumerates every handoff between). */
const nearby = fc
  .tuple(rotationArb('r1'), fc.integer({ min: 0, max: 60 * 24 }), fc.integer({ min: 1, max: 20 * 24 }))
  .map(([r, after, hours]) => ({ r, from: r.starts_at + after * HOUR, to: r.starts_at + (after + hours) * HOUR }));

const holder = (shifts: readonly Shift[], t: number) => shifts.filter((s) => s.starts_at <= t && t < s.ends_at);
const RUNS = { numRuns: 150 };

describe('shift engine properties', () => {
  it('a rotation alone: no overlaps, no gap inside its active time, nothing outside it, members in turn', () => {
    fc.assert(
      fc.property(rotationArb('r1'), range, (r, { from, to }) => {
        const shifts = computeShifts({ rotations: [r], overrides: [], from, to });
        for (let i = 1; i < shifts.length; i += 1) {
          const [prev, next] = [shifts[i - 1]!, shifts[i]!];
          expect(next.starts_at).toBeGreaterThanOrEqual(prev.ends_at);
          // The time between two shifts holds no active time (no gaps inside the active time).
          const between = r.active
            ? activeIntervals(r.active, r.time_zone, prev.ends_at, next.starts_at).filter(
                ([s, e]) => Math.max(s, prev.ends_at) < Math.min(e, next.starts_at),
              )
            : [];
          if (!r.active) expect(next.starts_at).toBe(prev.ends_at);
          else expect(between).toEqual([]);
        }
        for (const s of shifts) {
          expect(s.ends_at).toBeGreaterThan(s.starts_at);
          expect(s.starts_at).toBeGreaterThanOrEqual(r.starts_at);
          if (r.ends_at !== null) expect(s.ends_at).toBeLessThanOrEqual(r.ends_at);
          expect(s.ends_at > from && s.starts_at < to).toBe(true);
          expect(r.members).toContain(s.user_id);
          if (r.active) {
            const active = activeIntervals(r.active, r.time_zone, s.starts_at, s.ends_at);
            expect(active.some(([as, ae]) => as <= s.starts_at && s.ends_at <= ae)).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });

  it('each shift goes to members[k % n], k counted on handoffs enumerated independently (Luxon, day by day)', () => {
    fc.assert(
      fc.property(nearby, ({ r, from, to }) => {
        const list = handoffs(r, to);
        for (const s of computeShifts({ rotations: [r], overrides: [], from, to })) {
          expect(s.user_id).toBe(r.members[turnAt(list, r.starts_at, s.starts_at) % r.members.length]);
        }
      }),
      RUNS,
    );
  });

  it('no shift starts before the handoff at or before the range start, and without active times every independent handoff in the range starts one', () => {
    fc.assert(
      fc.property(nearby, ({ r, from, to }) => {
        const shifts = computeShifts({ rotations: [r], overrides: [], from, to });
        const list = handoffs(r, to);
        const firstHandoff = Math.max(r.starts_at, list.filter((h) => h <= Math.max(from, r.starts_at)).at(-1)!);
        for (const s of shifts) expect(s.starts_at).toBeGreaterThanOrEqual(firstHandoff);
        if (!r.active) {
          const end = r.ends_at ?? Infinity;
          const inRange = [...new Set(list.filter((h) => h > from && h < Math.min(to, end) && h > r.starts_at))];
          const starts = new Set(shifts.map((s) => s.starts_at));
          for (const h of inRange) expect(starts.has(h)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it("overrides always win: every instant an override holds is its (the later-created one's), and a lone override is returned whole", () => {
    // Overrides close together, so that they overlap.
    const near = fc
      .tuple(
        instant,
        fc.array(fc.integer({ min: 0, max: 72 }), { maxLength: 3 }),
        fc.integer({ min: 0, max: 48 }),
        fc.integer({ min: 1, max: 200 }),
      )
      .chain(([base, hs, before, hours]) =>
        fc.tuple(
          fc.tuple(
            ...hs.map((h, i) =>
              overrideArb(`o${i}`).map((o) => ({ ...o, starts_at: base + h * HOUR, ends_at: base + h * HOUR + (o.ends_at - o.starts_at) })),
            ),
          ),
          fc.constant({ from: base - before * HOUR, to: base - before * HOUR + hours * HOUR }),
        ),
      );
    fc.assert(
      fc.property(
        rotationArb('r1'),
        rotationArb('r2'),
        near,
        (r1, r2, [overrides, { from, to }]: [OverrideSpec[], { from: number; to: number }]) => {
          const shifts = computeShifts({ rotations: [r1, r2], overrides, from, to });
          for (const o of overrides) {
            for (const t of [o.starts_at, o.ends_at - 1, Math.floor((o.starts_at + o.ends_at) / 2)]) {
              if (t < from || t >= to) continue;
              const winner = overrides
                .filter((x) => x.starts_at <= t && t < x.ends_at)
                .sort((a, b) => b.created_at! - a.created_at! || (a.id < b.id ? 1 : -1))[0]!;
              const held = holder(shifts, t);
              expect(held).toHaveLength(1);
              expect(held[0]).toMatchObject({ is_override: true, override_id: winner.id, user_id: winner.user_id, rotation_id: null });
            }
            const alone = overrides.every((x) => x === o || x.ends_at <= o.starts_at || x.starts_at >= o.ends_at);
            if (alone && o.ends_at > from && o.starts_at < to) {
              expect(shifts.filter((s) => s.override_id === o.id)).toEqual([
                expect.objectContaining({ id: o.id, starts_at: o.starts_at, ends_at: o.ends_at }),
              ]);
            }
          }
          // Layered: nowhere do two final shifts of the schedule overlap.
          for (let i = 1; i < shifts.length; i += 1) expect(shifts[i]!.starts_at).toBeGreaterThanOrEqual(shifts[i - 1]!.ends_at);
        },
      ),
      RUNS,
    );
  });

  it('the same input gives the same shifts, whatever the order of rotations and overrides', () => {
    fc.assert(
      fc.property(rotationArb('r1'), rotationArb('r2'), overrideArb('o1'), range, (r1, r2, o, { from, to }) => {
        const a = computeShifts({ rotations: [r1, r2], overrides: [o], from, to });
        const b = computeShifts({ rotations: [r2, r1], overrides: [o], from, to });
        expect(b).toEqual(a);
        expect(computeShifts({ rotations: [r1, r2], overrides: [o], from, to })).toEqual(a);
      }),
      RUNS,
    );
  });

  it('a narrower range gives the same shifts where it overlaps (ids and bounds do not depend on the range)', () => {
    fc.assert(
      fc.property(rotationArb('r1'), rotationArb('r2'), range, fc.double({ min: 0, max: 1, noNaN: true }), (r1, r2, { from, to }, f) => {
        const all = computeShifts({ rotations: [r1, r2], overrides: [], from, to });
        const mid = Math.floor(from + (to - from) * f);
        const part = computeShifts({ rotations: [r1, r2], overrides: [], from: mid, to });
        expect(part).toEqual(all.filter((s) => s.ends_at > mid));
      }),
      RUNS,
    );
  });

  it('stops with TooManyShiftsError once its work budget is spent, and computes as usual below it', () => {
    fc.assert(
      fc.property(rotationArb('r1'), range, fc.integer({ min: 1, max: 50 }), (r, { from, to }, maxWork) => {
        const all = computeShifts({ rotations: [r], overrides: [], from, to });
        let limited: Shift[] | undefined;
        try {
          limited = computeShifts({ rotations: [r], overrides: [], from, to, budget: workBudget(maxWork) });
        } catch (err) {
          expect(err).toBeInstanceOf(TooManyShiftsError);
        }
        if (limited) expect(limited).toEqual(all);
      }),
      RUNS,
    );
  });
});
