import type { OverrideSpec, RotationSpec } from './shifts/index.js';
import type { UserSummary } from './users/users-deps.js';

/** What shift computation reads (`ctx.deps.shifts`): read-only, outside any write's transaction. */
export interface ShiftsDeps {
  /**
   * The rotations of the team's schedules (all, or those among `scheduleIds`), members in
   * turn order. No team: every team's. `live`: only those started before `to` and not
   * ended by `from` (the scheduler's look).
   */
  rotations(scope: { teamId?: number; scheduleIds?: readonly string[]; live?: { from: number; to: number } }): Promise<RotationSpec[]>;
  /** Overrides of those schedules overlapping [from, to). */
  overrides(scope: { teamId?: number; scheduleIds?: readonly string[] }, from: number, to: number): Promise<OverrideSpec[]>;
  /**
   * The team's schedule ids among `scheduleIds` (all when absent) that a group key's groups
   * own (`groupIds`) and a record-scoped key names (`recordIds`); null: no such narrowing.
   */
  scheduleIds(scope: { teamId: number; scheduleIds?: readonly string[]; groupIds: readonly string[] | null; recordIds: readonly string[] | null }): Promise<string[]>;
  /** Up to `limit` schedules of every team with ids after `afterId` (null: from the first), by id: the scheduler pages through them. */
  schedulesAfter(afterId: string | null, limit: number): Promise<{ id: string; team_id: number }[]>;
  /** Logs a rotation left out of a computation because this runtime does not know its time zone. */
  skipped(rotation: RotationSpec): void;
  /** Users named by shifts, deleted ones included. */
  users(teamId: number, userIds: readonly number[]): Promise<Map<number, UserSummary>>;
}
