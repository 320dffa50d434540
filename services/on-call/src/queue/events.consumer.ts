import type { Knex } from 'knex';
import {
  createEventTransport,
  EVENT_QUEUES,
  type EventEnvelope,
  type EventTransport,
  type PublisherUsers,
  type TransportConsumer,
} from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import type { AnyResourceDefinition } from '@firewatch/resource-kit';
import { createTargetSyncStore } from '../data/targets.repository.js';
import { createUserSyncStore } from '../data/users.repository.js';
import { TARGET_FAMILIES } from '../domain/targets/target-event.js';
import { createTargetSync } from '../domain/targets/target-sync.js';
import { createUserSync } from '../domain/users/user-sync.js';

export interface EventsConsumerOptions {
  knex: Knex;
  /** Where events travel (the service's transport); tests may name RabbitMQ by `amqpUrl` instead. */
  transport?: EventTransport;
  amqpUrl?: string;
  logger: Logger;
  /** Durable quorum queue of the events on-call consumes (`USERS_QUEUE`; one per deployment, shared by replicas). */
  queue: string;
  /** Broker users of the publishing services: an event is taken only from its family's owner. */
  publishers: PublisherUsers;
  /** Defaults to `firewatch.events` (tests use their own). */
  exchange?: string;
  prefetch?: number;
  /** The registry's declaration of rotation memberships (`schedule_rotation_users`), whose deletes a user's deletion announces. */
  memberships: AnyResourceDefinition;
  /** The registry's declarations of what a user owns (notification rules, then contact methods), deleted with the user. */
  personal: readonly AnyResourceDefinition[];
}

type Handle = (envelope: EventEnvelope) => Promise<unknown>;

/**
 * The handler of each event family on-call's queue is bound to (`EVENT_QUEUES['on-call']`):
 * auth's `user.*` feed the users read model, incident-config's `service.*` and
 * `functionality.*` and auth's `group.*` the known targets of alert groups.
 */
function eventHandlers(opts: Pick<EventsConsumerOptions, 'knex' | 'logger' | 'memberships' | 'personal'>): Record<string, Handle> {
  const users = createUserSync({
    store: createUserSyncStore(opts.knex),
    logger: opts.logger,
    memberships: opts.memberships,
    personal: opts.personal,
  });
  const targets = createTargetSync({ store: createTargetSyncStore(opts.knex), logger: opts.logger });
  return { user: users.handle, ...Object.fromEntries(TARGET_FAMILIES.map((family) => [family, targets.handle])) };
}

/**
 * Consumes on-call's queue and hands each event to its family's handler. Replicas share
 * the queue; each event is applied once or, redelivered, changes nothing (the read
 * models keep the newest state). An event of a family without a handler (a binding
 * added before its handler) is logged and acked: redelivery would not help.
 */
export function createEventsConsumer(opts: EventsConsumerOptions): TransportConsumer {
  const handlers = eventHandlers(opts);
  const transport = opts.transport ?? createEventTransport({ AMQP_URL: opts.amqpUrl });
  return transport.consume({
    logger: opts.logger,
    queue: opts.queue,
    exchange: opts.exchange,
    bindings: EVENT_QUEUES['on-call'].bindings,
    publishers: opts.publishers,
    prefetch: opts.prefetch ?? 10,
    handler: async (envelope) => {
      const handle = handlers[envelope.type.slice(0, envelope.type.indexOf('.'))];
      if (handle) await handle(envelope);
      else opts.logger.error('event dropped: on-call has no handler for its family', { event_id: envelope.id, type: envelope.type });
    },
  });
}
