import type { OverrideSpec, RotationSpec, Shift } from './shift.types.js';
import { computeShifts, groupBy, shiftWindow, type Window } from './shift-engine.js';
import { isTimeZone } from './local-time.js';
import { workBudget } from './work-budget.js';

/** Overrides are at most 31 days long, so one cutting a shift in a window starts within this of it. */
export const OVERRIDE_REACH = 32 * 86_400_000;

export interface ShiftPlan {
  rotations: readonly RotationSpec[];
  from: number;
  to: number;
  /** Work units the whole computation may cost, the windows included (TooManyShiftsError beyond). */
  maxWork?: number;
  /** The overrides of these rotations' schedules (and of schedules with no rotation) overlapping [from, to). */
  overrides(from: number, to: number): Promise<OverrideSpec[]>;
  /** Told of each rotation left out because its time zone is unknown to this runtime (the rest are computed). */
  skipped?(rotation: RotationSpec): void;
}

/**
 * The final shifts overlapping [from, to) of the rotations given and the overrides read
 * for them: each schedule's window (the whole shifts crossing the range's edges) is computed
 * once, the overrides that can cut it are read, then the shifts are layered, all under one
 * work budget. A rotation whose zone the runtime does not know is skipped, not fatal.
 */
export async function planShifts(plan: ShiftPlan): Promise<Shift[]> {
  const budget = workBudget(plan.maxWork);
  const rotations = plan.rotations.filter((r) => isTimeZone(r.time_zone) || (plan.skipped?.(r), false));
  const windows = new Map<string, Window>();
  let lo = plan.from;
  let hi = plan.to;
  for (const [id, list] of groupBy(rotations)) {
    const w = shiftWindow(list, plan.from, plan.to, budget);
    windows.set(id, w);
    lo = Math.min(lo, w.from);
    hi = Math.max(hi, w.to);
  }
  const overrides = await plan.overrides(lo - OVERRIDE_REACH, hi + OVERRIDE_REACH);
  return computeShifts({ rotations, overrides, from: plan.from, to: plan.to, budget, windows });
}
