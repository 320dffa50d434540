import type { Transaction } from '@firewatch/resource-kit';

/** A user as shifts and includes show it; `deleted` once auth deleted it. */
export interface UserSummary {
  id: number;
  name: string;
  email: string;
  deleted: boolean;
}

/** The users read model as on-call's declarations see it (`ctx.deps.users`). */
export interface UsersDeps {
  /**
   * The ids among `userIds` that are live (not deleted) users of the team. Locks their
   * rows until `tx` ends, so a deletion arriving meanwhile waits for the write that
   * checked, then removes what it added (rotation memberships).
   */
  existing(tx: Transaction, teamId: number, userIds: readonly number[]): Promise<Set<number>>;
  /** The team's users among `userIds`, deleted ones included (`deleted: true`); ids never seen are absent. */
  summaries(tx: Transaction, teamId: number, userIds: readonly number[]): Promise<Map<number, UserSummary>>;
}
