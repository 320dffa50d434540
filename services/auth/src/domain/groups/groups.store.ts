import type { Row } from '@firewatch/resource-kit';
import type { Tx } from '../unit-of-work.js';
import type { UserRow } from '../users.store.js';

/** What groups read of users, and what a user's deletion changes in groups. */
export interface GroupMembersStore {
  /**
   * Which of `ids` are users of the team, key-share-locked until `tx` ends: a user named
   * by a group write cannot be deleted before that write commits, and one deleted first
   * reads as absent.
   */
  usersOfTeam(tx: Tx, teamId: number, ids: readonly number[]): Promise<Set<number>>;
  /** The users of the team among `ids` (for `include=users`), in id order. */
  usersByIds(teamId: number, ids: readonly number[], tx?: Tx): Promise<UserRow[]>;
  /** The ids of the team's groups having any of `userIds` as a member (for users' `include=teams`). */
  groupIdsOfUsers(teamId: number, userIds: readonly number[]): Promise<string[]>;
  /** Takes the user out of every group of the team (members and admins); the groups changed, as stored now. */
  removeUser(tx: Tx, teamId: number, userId: number): Promise<Row[]>;
}

/** What API keys read of groups. */
export interface GroupsLookup {
  /** Which of `ids` are groups of the team, key-share-locked until `tx` ends (a delete waits, or went first). */
  existingIds(tx: Tx, teamId: number, ids: readonly string[]): Promise<Set<string>>;
}

/** The backfill's read of every group. */
export interface GroupsBackfillStore {
  /** Up to `limit` groups (of one team, or all) after `after`, in the order of id and team. */
  page(after: { id: string; team_id: number } | null, limit: number, teamId?: number): Promise<Row[]>;
}
