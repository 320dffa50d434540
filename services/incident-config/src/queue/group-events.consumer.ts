import type { Knex } from 'knex';
import { createEventTransport, EVENT_QUEUES, type EventTransport, type PublisherUsers, type TransportConsumer } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import { createGroupSyncStore } from '../data/groups.repository.js';
import { createGroupSync } from '../domain/groups/group-sync.js';

export interface GroupEventsConsumerOptions {
  knex: Knex;
  /** Where events travel (the service's transport); tests may name RabbitMQ by `amqpUrl` instead. */
  transport?: EventTransport;
  amqpUrl?: string;
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
export function createGroupEventsConsumer(opts: GroupEventsConsumerOptions): TransportConsumer {
  const sync = createGroupSync({ store: createGroupSyncStore(opts.knex), logger: opts.logger });
  const transport = opts.transport ?? createEventTransport({ AMQP_URL: opts.amqpUrl });
  return transport.consume({
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
