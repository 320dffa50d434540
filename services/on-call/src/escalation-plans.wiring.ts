import type { Logger } from '@firewatch/logger';
import { createEscalationPlansRepository } from './data/escalation-plans.repository.js';
import { createShiftInputsRepository, rotationsInOneRead } from './data/shift-inputs.repository.js';
import { createUsersRepository } from './data/users.repository.js';
import { createEscalationPlans } from './domain/escalation-plans/escalation-plans.js';
import type { OnCallAt } from './domain/escalation-plans/level-resolution.js';
import type { RotationScope, ShiftReadBounds } from './domain/on-call.deps.js';
import type { EscalationPlans } from './domain/paging/paging.ports.js';
import { schedulesShifts, SHIFT_READ_BOUNDS } from './domain/schedules/shifts.source.js';

/**
 * Who holds a schedule at an instant: the final shifts covering `at`, computed as
 * GET /v1/shifts computes them (overrides included), within its read bounds and budget,
 * read in the paging transaction.
 */
export function onCallAtOn(logger?: Logger, shiftReads: ShiftReadBounds = SHIFT_READ_BOUNDS): OnCallAt {
  const users = createUsersRepository();
  return async (tx, teamId, scheduleId, at) => {
    // One schedule's rotations, members and active days in one read (three otherwise): a page's round trips are its cost.
    const base = createShiftInputsRepository(tx, users, logger);
    const shifts = { ...base, rotations: (scope: RotationScope) => (scope.live ? base.rotations(scope) : rotationsInOneRead(tx, scope)) };
    const t = at.getTime();
    const covering = await schedulesShifts({ shifts, shiftReads }, teamId, [scheduleId], t, t + 1);
    return covering.filter((s) => s.starts_at <= t && t < s.ends_at);
  };
}

/** The escalation plans (paging.ports.ts) on their store, for the paging engine (paging.wiring.ts' PagingPorts). */
export function escalationPlansOn(logger?: Logger, shiftReads?: ShiftReadBounds): EscalationPlans {
  return createEscalationPlans({ store: createEscalationPlansRepository(), onCallAt: onCallAtOn(logger, shiftReads) });
}
