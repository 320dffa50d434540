import { createHash } from 'node:crypto';
import type { OverrideSpec, RotationSpec, Shift } from './shift.types.js';
import { type RotationShift, rotationShifts } from './rotation-shifts.js';
import { charge, workBudget, type WorkBudget } from './work-budget.js';
import { CoveredTime } from './intervals.js';

export interface ShiftQuery {
  rotations: readonly RotationSpec[];
  /** Every override of the schedules that may touch the range (extra ones are ignored). */
  overrides: readonly OverrideSpec[];
  from: number;
  to: number;
  /** The work this computation may do (TooManyShiftsError beyond); unbounded when absent. */
  budget?: WorkBudget;
  /** Each schedule's shiftWindow when already computed (planShifts computes them to read overrides). */
  windows?: ReadonlyMap<string, Window>;
}

export interface Window {
  from: number;
  to: number;
}

/** A stable id for a computed shift: the same shift gets the same id in every answer. */
function shiftId(parts: readonly (string | number | null)[]): string {
  const h = createHash('sha256').update(parts.join('|')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const byPriority = (a: RotationSpec, b: RotationSpec) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The window whose whole shifts decide those overlapping [from, to): each rotation's
 * shifts crossing an edge are returned whole, so layering must see everything they overlap.
 */
export function shiftWindow(rotations: readonly RotationSpec[], from: number, to: number, budget?: WorkBudget): Window {
  let lo = from;
  let hi = to;
  // Only the shifts crossing an edge reach out of the range.
  for (const r of rotations) {
    for (const s of [...rotationShifts(r, from, from + 1, budget), ...rotationShifts(r, to - 1, to, budget)]) {
      lo = Math.min(lo, s.starts_at);
      hi = Math.max(hi, s.ends_at);
    }
  }
  return { from: lo, to: hi };
}

/**
 * The final shifts of one schedule's rotations and overrides overlapping [from, to), each
 * whole, sorted by start: overrides first (of two overlapping, the later-created wins), then
 * rotations by position (lower wins), each getting only the time nothing above it holds.
 */
function scheduleShifts(
  rotations: readonly RotationSpec[],
  overrides: readonly OverrideSpec[],
  from: number,
  to: number,
  budget: WorkBudget,
  known?: Window,
): Shift[] {
  const window = known ?? shiftWindow(rotations, from, to, budget);
  const covered = new CoveredTime();
  const out: Shift[] = [];
  // Every override given, not only those in the window: one outside it may still cut one inside.
  const recent = [...overrides].sort((a, b) => (b.created_at ?? 0) - (a.created_at ?? 0) || (a.id < b.id ? 1 : -1));
  for (const o of recent) {
    const pieces = covered.uncovered(o.starts_at, o.ends_at);
    covered.cover(o.starts_at, o.ends_at);
    const whole = pieces.length === 1 && pieces[0]![0] === o.starts_at && pieces[0]![1] === o.ends_at;
    for (const [s, e] of pieces) {
      charge(budget);
      out.push({
        id: whole ? o.id : shiftId(['override', o.id, s, e]),
        schedule_id: o.schedule_id,
        rotation_id: null,
        override_id: o.id,
        user_id: o.user_id,
        starts_at: s,
        ends_at: e,
        is_override: true,
      });
    }
  }
  for (const rotation of [...rotations].sort(byPriority)) {
    const shifts: RotationShift[] = rotationShifts(rotation, window.from, window.to, budget);
    for (const shift of shifts) {
      for (const [s, e] of covered.uncovered(shift.starts_at, shift.ends_at)) {
        charge(budget);
        out.push({
          id: shiftId([rotation.id, shift.user_id, s, e]),
          schedule_id: rotation.schedule_id,
          rotation_id: rotation.id,
          override_id: null,
          user_id: shift.user_id,
          starts_at: s,
          ends_at: e,
          is_override: false,
        });
      }
    }
    for (const shift of shifts) covered.cover(shift.starts_at, shift.ends_at);
  }
  return out.filter((s) => s.ends_at > from && s.starts_at < to);
}

export const compareShifts = (a: Shift, b: Shift) =>
  a.starts_at - b.starts_at ||
  (a.schedule_id < b.schedule_id ? -1 : a.schedule_id > b.schedule_id ? 1 : 0) ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The final shifts of every schedule in the query overlapping [from, to): pure, so the
 * same rotations and overrides always give the same shifts with the same ids.
 * @throws TooManyShiftsError once `budget` is spent.
 */
export function computeShifts(query: ShiftQuery): Shift[] {
  const rotations = groupBy(query.rotations);
  const overrides = groupBy(query.overrides);
  const out: Shift[] = [];
  const budget = query.budget ?? workBudget();
  for (const id of new Set([...rotations.keys(), ...overrides.keys()])) {
    out.push(...scheduleShifts(rotations.get(id) ?? [], overrides.get(id) ?? [], query.from, query.to, budget, query.windows?.get(id)));
  }
  return out.sort(compareShifts);
}

/** Items by schedule, in one pass. */
export function groupBy<T extends { schedule_id: string }>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const list = out.get(item.schedule_id);
    if (list) list.push(item);
    else out.set(item.schedule_id, [item]);
  }
  return out;
}
