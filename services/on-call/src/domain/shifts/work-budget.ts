/**
 * One request's (or one scheduler look's) work, counted in units of roughly equal cost:
 * a turn (its handoff instants), an active window of one day (its two wall-clock instants)
 * and a shift piece produced (an object, a layering step and an id hash). Turns alone do
 * not bound the work: a monthly turn of a rotation with 24 windows a day costs 720 windows.
 */
export interface WorkBudget {
  left: number;
  readonly limit: number;
}

/** Thrown when computing shifts would cost more than the budget (a range too long for too many rotations or windows). */
export class TooManyShiftsError extends Error {
  constructor(readonly limit: number) {
    super(`computing these shifts costs more than ${limit} work units`);
  }
}

/**
 * Thrown by a bounded read of the shift engine's input when the schedules asked for hold
 * more rotations or member slots than one request may read (`ShiftReadBounds`).
 */
export class TooManyInputsError extends Error {
  constructor(
    readonly what: 'rotations' | 'member slots',
    readonly limit: number,
  ) {
    super(`the schedules asked for hold more than ${limit} ${what}`);
  }
}

export const workBudget = (limit = Infinity): WorkBudget => ({ left: limit, limit });

/** Takes `units` from the budget; throws once it is spent. */
export function charge(budget: WorkBudget | undefined, units = 1): void {
  if (budget && (budget.left -= units) < 0) throw new TooManyShiftsError(budget.limit);
}
