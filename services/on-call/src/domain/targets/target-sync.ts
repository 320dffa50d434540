import type { EventEnvelope } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import { toTargetChange } from './target-event.js';
import type { TargetSyncStore } from './target-sync-store.js';

export type TargetSyncOutcome = 'applied' | 'stale' | 'invalid';

/**
 * Applies `service.*`, `functionality.*` (incident-config) and `group.*` (auth) events to
 * the read model of known targets, which lets an alert group's target be named by its id
 * alone. Idempotent and order-safe: the newest state of a target wins, a deletion leaves a
 * tombstone that no late or redelivered event revives. A malformed event is logged and
 * dropped: no redelivery would make it valid.
 */
export function createTargetSync({ store, logger }: { store: TargetSyncStore; logger: Logger }) {
  return {
    async handle(envelope: EventEnvelope): Promise<TargetSyncOutcome> {
      const change = toTargetChange(envelope);
      if ('invalid' in change) {
        logger.error('target event dropped: it cannot be applied', { event_id: envelope.id, type: envelope.type, reason: change.invalid });
        return 'invalid';
      }
      return (await store.apply(change)) ? 'applied' : 'stale';
    },
  };
}

export type TargetSync = ReturnType<typeof createTargetSync>;
