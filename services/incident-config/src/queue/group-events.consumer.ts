import type { Knex } from 'knex';
import { createAmqpConsumer, EVENT_QUEUES, type AmqpConsumer, type PublisherUsers } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import { createGroupSyncStore } from '../data/groups.repository.js';
import { createGroupSync } from '../domain/groups/group-sync.js';

export interface GroupEventsConsumerOptions {
  knex: Knex;
  amqpUrl: string;
  logger: Logger;
  /** Durable quorum queue of this service's group events (one per deployment, shared by replicas). */
  queue: string;
  /** Broker users of the publishing services: only auth's group.* events are taken. */
  publishers: PublisherUsers;
  /** Defaults to `firewatch.events` (tests use their own). */
  exchange?: string;
  prefetch?: number;
}

/**
 * Feeds the groups read model from auth's `group.*` events. Replicas share the queue;
 * each event is applied once or, redelivered or late, changes nothing.
 */
export function createGroupEventsConsumer(opts: GroupEventsConsumerOptions): AmqpConsumer {
  const sync = createGroupSync({ store: createGroupSyncStore(opts.knex), logger: opts.logger });
  return createAmqpConsumer({
    amqpUrl: opts.amqpUrl,
    logger: opts.logger,
    queue: opts.queue,
    exchange: opts.exchange,
    bindings: EVENT_QUEUES['incident-config'].bindings,
    publishers: opts.publishers,
    prefetch: opts.prefetch ?? 10,
    handler: async (envelope) => {
      await sync.handle(envelope);
    },
  });
}
