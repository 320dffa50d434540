import type { OverrideSpec, RotationSpec, Shift } from './shift.types.js';
import { compareShifts, computeShifts, groupBy, shiftWindow, type Window } from './shift-engine.js';
import { isTimeZone } from './local-time.js';
import { charge, workBudget, type WorkBudget } from './work-budget.js';

/** Overrides are at most 31 days long, so one cutting a shift in a window starts within this of it. */
export const OVERRIDE_REACH = 32 * 86_400_000;

export interface ShiftPlan {
  rotations: readonly RotationSpec[];
  from: number;
  to: number;
  /** Work units the computation may cost, the windows included (TooManyShiftsError beyond); with `failed`, each schedule's own. */
  maxWork?: number;
  /** The overrides of these rotations' schedules (and of schedules with no rotation) overlapping [from, to). */
  overrides(from: number, to: number, limit?: number): Promise<OverrideSpec[]>;
  /** Told of each rotation left out because its time zone is unknown to this runtime (the rest are computed). */
  skipped?(rotation: RotationSpec): void;
  /**
   * Given: each schedule is computed on its own budget, and one that fails (its budget
   * spent, a bug) is reported here and left out, holding up no other. Absent: the first
   * failure is thrown and the budget is shared.
   */
  failed?(scheduleId: string, err: unknown): void;
}

/**
 * The final shifts overlapping [from, to) of the rotations given and the overrides read
 * for them, sorted by start: each schedule's window (the whole shifts crossing the range's
 * edges) is computed once, the overrides that can cut it are read in one call, then each
 * schedule's shifts are layered. A rotation whose zone the runtime does not know is
 * skipped, not fatal.
 */
export async function planShifts(plan: ShiftPlan): Promise<Shift[]> {
  const shared = workBudget(plan.maxWork);
  const budgets = new Map<string, WorkBudget>();
  const failed = new Set<string>();
  const attempt = (id: string, work: () => void) => {
    try {
      work();
    } catch (err) {
      if (!plan.failed) throw err;
      failed.add(id);
      plan.failed(id, err);
    }
  };
  const rotations = groupBy(plan.rotations.filter((r) => isTimeZone(r.time_zone) || (plan.skipped?.(r), false)));
  const windows = new Map<string, Window>();
  let lo = plan.from;
  let hi = plan.to;
  for (const [id, list] of rotations) {
    const budget = plan.failed ? workBudget(plan.maxWork) : shared;
    budgets.set(id, budget);
    attempt(id, () => {
      const w = shiftWindow(list, plan.from, plan.to, budget);
      windows.set(id, w);
      lo = Math.min(lo, w.from);
      hi = Math.max(hi, w.to);
    });
  }
  // Without `failed` (a request), each override read is charged first, and no more are read
  // than the budget left can pay for: a schedule's many overrides cost a 400, not a large read.
  const read = plan.failed
    ? await plan.overrides(lo - OVERRIDE_REACH, hi + OVERRIDE_REACH)
    : await plan.overrides(lo - OVERRIDE_REACH, hi + OVERRIDE_REACH, shared.left + 1);
  if (!plan.failed) charge(shared, read.length);
  const overrides = groupBy(read);
  const out: Shift[] = [];
  for (const id of new Set([...rotations.keys(), ...overrides.keys()])) {
    if (failed.has(id)) continue;
    // An override-only schedule gets its own budget too: one team's overrides never spend another's.
    const budget = budgets.get(id) ?? (plan.failed ? workBudget(plan.maxWork) : shared);
    attempt(id, () => {
      out.push(
        ...computeShifts({
          rotations: rotations.get(id) ?? [],
          overrides: overrides.get(id) ?? [],
          from: plan.from,
          to: plan.to,
          budget,
          windows,
        }),
      );
    });
    // The scheduler shares the event loop with requests: it lets them in between schedules.
    if (plan.failed) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out.sort(compareShifts);
}
