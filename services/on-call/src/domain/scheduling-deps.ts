import type { Transaction } from '@firewatch/resource-kit';

/** What the schedule declarations need from the data layer beyond the kit (`ctx.deps.scheduling`). */
export interface SchedulingDeps {
  /** The position after the last row of `table` whose `column` is `parentId` (a rotation in its schedule, a member in its rotation). */
  nextPosition(tx: Transaction, table: string, column: string, parentId: string): Promise<number>;
  /**
   * Locks the schedule's overrides for the rest of the transaction (so two racing writes
   * cannot both find the time free), then finds an override of it overlapping
   * `[startsAt, endsAt)`.
   */
  overlappingOverride(tx: Transaction, scheduleId: string, startsAt: Date, endsAt: Date): Promise<{ id: string; starts_at: Date; ends_at: Date } | undefined>;
}
