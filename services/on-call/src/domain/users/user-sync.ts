import type { EventEnvelope } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import { serialize, type AnyResourceDefinition } from '@firewatch/resource-kit';
import { toUserChange } from './user-event.js';
import type { UserSyncStore } from './user-sync-store.js';

export type UserSyncOutcome = 'applied' | 'stale' | 'invalid';

/**
 * Applies auth's `user.*` events to the users read model: idempotent and order-safe by
 * version (a duplicate or an older event changes nothing), and a deletion takes the
 * user out of every rotation in the same transaction, each removal with its own
 * `schedule_rotation_user.deleted` event. A malformed event is logged and dropped: no
 * redelivery would make it valid.
 */
export function createUserSync({
  store,
  logger,
  memberships,
}: {
  store: UserSyncStore;
  logger: Logger;
  /** The registry's declaration of rotation memberships (`schedule_rotation_users`): a removal is announced as its delete is. */
  memberships: AnyResourceDefinition;
}) {
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
          const removed = await store.removeMemberships(tx, change.team_id, change.user_id);
          await store.writeEvents(
            tx,
            removed.map((row) => ({
              type: `${memberships.event}.deleted`,
              team_id: change.team_id,
              data: serialize(memberships, row),
            })),
          );
        }
        return 'applied';
      });
    },
  };
}

export type UserSync = ReturnType<typeof createUserSync>;
