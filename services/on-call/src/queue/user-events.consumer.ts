import type { Knex } from 'knex';
import { createAmqpConsumer, EVENT_QUEUES, type AmqpConsumer, type PublisherUsers } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import type { AnyResourceDefinition } from '@firewatch/resource-kit';
import { createUserSyncStore } from '../data/users.repository.js';
import { createUserSync } from '../domain/users/user-sync.js';

export interface UserEventsConsumerOptions {
  knex: Knex;
  amqpUrl: string;
  logger: Logger;
  /** Durable quorum queue of this service's user events (one per deployment, shared by replicas). */
  queue: string;
  /** Broker users of the publishing services: only auth's user.* events are taken. */
  publishers: PublisherUsers;
  /** Defaults to `firewatch.events` (tests use their own). */
  exchange?: string;
  prefetch?: number;
  /** The registry's declaration of rotation memberships (`schedule_rotation_users`), whose deletes a user's deletion announces. */
  memberships: AnyResourceDefinition;
}

/**
 * Feeds the users read model from auth's `user.*` events. Replicas share the queue;
 * each event is applied once or, redelivered, changes nothing (versions decide).
 */
export function createUserEventsConsumer(opts: UserEventsConsumerOptions): AmqpConsumer {
  const sync = createUserSync({ store: createUserSyncStore(opts.knex), logger: opts.logger, memberships: opts.memberships });
  return createAmqpConsumer({
    amqpUrl: opts.amqpUrl,
    logger: opts.logger,
    queue: opts.queue,
    exchange: opts.exchange,
    bindings: EVENT_QUEUES['on-call'].bindings,
    publishers: opts.publishers,
    prefetch: opts.prefetch ?? 10,
    handler: async (envelope) => {
      await sync.handle(envelope);
    },
  });
}
