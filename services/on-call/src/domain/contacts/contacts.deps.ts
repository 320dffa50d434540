import type { Row, Transaction } from '@firewatch/resource-kit';

/** The two kinds of contact method a notification rule names. */
export type ContactKind = 'email' | 'phone';

/** What the contact-method and notification-rule declarations need from storage (`ctx.deps.contacts`). */
export interface ContactsDeps {
  /**
   * The live (not deleted) user `userId` of the team in the users read model, as the
   * parent row (`{ id }`), else undefined. `lock`: held FOR SHARE until `tx` ends, so a
   * `user.deleted` arriving meanwhile waits for the write, then removes what it added.
   */
  person(tx: Transaction | undefined, teamId: number, userId: number, lock: boolean): Promise<Row | undefined>;
  /** The ids of the oldest contact method of `kind` of each of these users: their primary one. */
  primaryIds(tx: Transaction | undefined, kind: ContactKind, userIds: readonly number[]): Promise<Set<string>>;
  /**
   * Which of `ids` (UUIDs) name contact methods of `kind` of the user, held FOR SHARE until
   * `tx` ends, so none is deleted under a rule that is about to name it.
   */
  owned(tx: Transaction, kind: ContactKind, userId: number, ids: readonly string[]): Promise<Set<string>>;
  /** The ids of the notification rules naming the contact method. */
  rulesUsing(tx: Transaction, kind: ContactKind, id: string): Promise<string[]>;
}
