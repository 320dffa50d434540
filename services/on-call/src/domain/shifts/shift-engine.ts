import { createHash } from 'node:crypto';
import type { OverrideSpec, RotationSpec, Shift } from './shift.types.js';
import { type RotationShift, rotationShifts, type TurnBudget } from './rotation-shifts.js';
import { CoveredTime } from './intervals.js';

export interface ShiftQuery {
  rotations: readonly RotationSpec[];
  /** Every override of the schedules that may touch the range (extra ones are ignored). */
  overrides: readonly OverrideSpec[];
  from: number;
  to: number;
  /** At most this many turns computed (TooManyShiftsError beyond): bounds one request's work. */
  maxTurns?: number;
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
export function shiftWindow(rotations: readonly RotationSpec[], from: number, to: number): { from: number; to: number } {
  let lo = from;
  let hi = to;
  // Only the shifts crossing an edge reach out of the range.
  for (const r of rotations) {
    for (const s of [...rotationShifts(r, from, from + 1), ...rotationShifts(r, to - 1, to)]) {
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
function scheduleShifts(rotations: readonly RotationSpec[], overrides: readonly OverrideSpec[], from: number, to: number, budget: TurnBudget): Shift[] {
  const window = shiftWindow(rotations, from, to);
  const covered = new CoveredTime();
  const out: Shift[] = [];
  // Every override given, not only those in the window: one outside it may still cut one inside.
  const recent = [...overrides].sort((a, b) => (b.created_at ?? 0) - (a.created_at ?? 0) || (a.id < b.id ? 1 : -1));
  for (const o of recent) {
    const pieces = covered.uncovered(o.starts_at, o.ends_at);
    covered.cover(o.starts_at, o.ends_at);
    const whole = pieces.length === 1 && pieces[0]![0] === o.starts_at && pieces[0]![1] === o.ends_at;
    for (const [s, e] of pieces) {
      out.push({
        id: whole ? o.id : shiftId(['override', o.id, s, e]), schedule_id: o.schedule_id, rotation_id: null, override_id: o.id,
        user_id: o.user_id, starts_at: s, ends_at: e, is_override: true,
      });
    }
  }
  for (const rotation of [...rotations].sort(byPriority)) {
    const shifts: RotationShift[] = rotationShifts(rotation, window.from, window.to, budget);
    for (const shift of shifts) {
      for (const [s, e] of covered.uncovered(shift.starts_at, shift.ends_at)) {
        out.push({
          id: shiftId([rotation.id, shift.user_id, s, e]), schedule_id: rotation.schedule_id, rotation_id: rotation.id, override_id: null,
          user_id: shift.user_id, starts_at: s, ends_at: e, is_override: false,
        });
      }
    }
    for (const shift of shifts) covered.cover(shift.starts_at, shift.ends_at);
  }
  return out.filter((s) => s.ends_at > from && s.starts_at < to);
}

export const compareShifts = (a: Shift, b: Shift) =>
  a.starts_at - b.starts_at || (a.schedule_id < b.schedule_id ? -1 : a.schedule_id > b.schedule_id ? 1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The final shifts of every schedule in the query overlapping [from, to): pure, so the
 * same rotations and overrides always give the same shifts with the same ids.
 * @throws TooManyShiftsError past `maxTurns`.
 */
export function computeShifts(query: ShiftQuery): Shift[] {
  const schedules = new Set([...query.rotations.map((r) => r.schedule_id), ...query.overrides.map((o) => o.schedule_id)]);
  const out: Shift[] = [];
  const budget: TurnBudget = { left: query.maxTurns ?? Infinity, limit: query.maxTurns ?? Infinity };
  for (const id of schedules) {
    out.push(...scheduleShifts(query.rotations.filter((r) => r.schedule_id === id), query.overrides.filter((o) => o.schedule_id === id), query.from, query.to, budget));
  }
  return out.sort(compareShifts);
}
