import type { EventEnvelope } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import { toGroupChange, type GroupChange } from './group-event.js';

/** What applying a group event needs from the data layer. */
export interface GroupSyncStore {
  /**
   * Stores the change unless it is older than the stored one (`updated_at`, then
   * `occurred_at`) or the group is deleted already; a deletion always lands on a live
   * group. One statement, so a concurrent older event cannot slip in. True when stored.
   */
  apply(change: GroupChange): Promise<boolean>;
}

export type GroupSyncOutcome = 'applied' | 'stale' | 'invalid';

/**
 * Applies auth's `group.*` events to the groups read model: idempotent and order-safe (a
 * duplicate or an older event changes nothing, and a deletion is final, so a late
 * creation does not bring a deleted team back). Records naming a deleted team keep its
 * id (docs/decisions.md, "Teams"). A malformed event is logged and dropped: no
 * redelivery would make it valid.
 */
export function createGroupSync({ store, logger }: { store: GroupSyncStore; logger: Logger }) {
  return {
    async handle(envelope: EventEnvelope): Promise<GroupSyncOutcome> {
      const change = toGroupChange(envelope);
      if ('invalid' in change) {
        logger.error('group event dropped: it cannot be applied', { event_id: envelope.id, type: envelope.type, reason: change.invalid });
        return 'invalid';
      }
      return (await store.apply(change)) ? 'applied' : 'stale';
    },
  };
}

export type GroupSync = ReturnType<typeof createGroupSync>;
