import type { Transaction } from '@firewatch/resource-kit';
import type { SchedulingDeps } from '../domain/on-call.deps.js';

/** The override overlap check of the schedule declarations. */
export function createSchedulingRepository(): SchedulingDeps {
  return {
    async overlappingOverride(tx: Transaction, scheduleId: string, startsAt: Date, endsAt: Date) {
      await tx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`override_shifts:${scheduleId}`]);
      return tx('override_shifts')
        .where({ schedule_id: scheduleId })
        .where('starts_at', '<', endsAt)
        .where('ends_at', '>', startsAt)
        .orderBy('starts_at')
        .first('id', 'starts_at', 'ends_at');
    },
  };
}
