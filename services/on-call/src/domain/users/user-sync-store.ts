import type { EventInput } from '@firewatch/events';
import type { Row, Transaction } from '@firewatch/resource-kit';
import type { UserChange } from './user-event.js';

/** What applying a user event needs from the data layer. */
export interface UserSyncStore {
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Stores the change unless the user's stored version is the same or newer; true when it was stored. */
  apply(tx: Transaction, change: UserChange): Promise<boolean>;
  /** Deletes the user's rotation memberships in the team and returns the deleted rows. */
  removeMemberships(tx: Transaction, teamId: number, userId: number): Promise<Row[]>;
  /** Deletes the user's rows of `table` (their contact methods, their rules) and returns them, oldest first. */
  removeOwned(tx: Transaction, table: string, teamId: number, userId: number): Promise<Row[]>;
  writeEvents(tx: Transaction, events: EventInput[]): Promise<void>;
}
