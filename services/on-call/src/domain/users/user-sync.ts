import type { EventEnvelope } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import { serialize, type AnyResourceDefinition, type Row, type Transaction } from '@firewatch/resource-kit';
import { markOldestPrimary } from '../contacts/contact-methods.rules.js';
import { toUserChange } from './user-event.js';
import type { UserSyncStore } from './user-sync-store.js';

export type UserSyncOutcome = 'applied' | 'stale' | 'invalid';

/**
 * Applies auth's `user.*` events to the users read model: idempotent and order-safe by
 * version (a duplicate or an older event changes nothing), and a deletion takes the
 * user out of every rotation and deletes their contact methods and notification rules in
 * the same transaction, each removal with its own `<event>.deleted` event. A malformed
 * event is logged and dropped: no redelivery would make it valid.
 */
export function createUserSync({
  store,
  logger,
  memberships,
  personal,
}: {
  store: UserSyncStore;
  logger: Logger;
  /** The registry's declaration of rotation memberships (`schedule_rotation_users`): a removal is announced as its delete is. */
  memberships: AnyResourceDefinition;
  /**
   * The registry's declarations of what a user owns (`user_notification_rules`, then the
   * contact methods they name): their rows go with the user, each announced as its delete is.
   */
  personal: readonly AnyResourceDefinition[];
}) {
  const announce = (tx: Transaction, def: AnyResourceDefinition, teamId: number, rows: Row[]) =>
    store.writeEvents(
      tx,
      rows.map((row) => ({ type: `${def.event}.deleted`, team_id: teamId, data: serialize(def, row) })),
    );
  return {
    async handle(envelope: EventEnvelope): Promise<UserSyncOutcome> {
      const change = toUserChange(envelope);
      if ('invalid' in change) {
        logger.error('user event dropped: it cannot be applied', { event_id: envelope.id, type: envelope.type, reason: change.invalid });
        return 'invalid';
      }
      return store.transaction(async (tx) => {
        if (!(await store.apply(tx, change))) return 'stale';
        if (change.deleted_at) {
          await announce(tx, memberships, change.team_id, await store.removeMemberships(tx, change.team_id, change.user_id));
          for (const def of personal) {
            const removed = await store.removeOwned(tx, def.table!, change.team_id, change.user_id);
            // `primary` is computed, not stored: the stored rows cannot tell it.
            if (def.attributes.includes('primary')) markOldestPrimary(removed);
            await announce(tx, def, change.team_id, removed);
          }
        }
        return 'applied';
      });
    },
  };
}

export type UserSync = ReturnType<typeof createUserSync>;
