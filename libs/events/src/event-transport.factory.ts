import { createAmqpConsumer } from './amqp-consumer.js';
import { createAmqpPublisher } from './amqp-publisher.js';
import { inEventContext } from './event-context.js';
import type { EventTransport } from './event-transport.js';
import { createPgEventsConsumer } from './pg-events.consumer.js';
import { createPgEventsPublisher } from './pg-events.publisher.js';

/** Where a process's events travel: its configuration's `AMQP_URL` or `EVENTS_DATABASE_URL`. */
export interface EventTransportSettings {
  AMQP_URL?: string;
  EVENTS_DATABASE_URL?: string;
}

function redacted(url: string): string {
  return Object.assign(new URL(url), { username: '', password: '' }).toString();
}

/**
 * The transport a configuration names: RabbitMQ when `AMQP_URL` is set (production,
 * compose, CI), else the PostgreSQL events database of `EVENTS_DATABASE_URL` (a machine
 * with Node only). Throws when neither is set.
 */
export function createEventTransport(settings: EventTransportSettings): EventTransport {
  const { AMQP_URL: amqpUrl, EVENTS_DATABASE_URL: eventsDatabaseUrl } = settings;
  if (amqpUrl) {
    return {
      kind: 'amqp',
      description: `RabbitMQ at ${redacted(amqpUrl)}`,
      publisher: (hooks) => createAmqpPublisher({ ...hooks, amqpUrl }),
      consume: ({ handler, ...opts }) => createAmqpConsumer({ ...opts, amqpUrl, handler: inEventContext(opts.queue, handler) }),
    };
  }
  if (eventsDatabaseUrl) {
    return {
      kind: 'postgres',
      description: `the PostgreSQL events database at ${redacted(eventsDatabaseUrl)}`,
      publisher: (hooks) => createPgEventsPublisher({ ...hooks, eventsDatabaseUrl }),
      consume: (opts) => createPgEventsConsumer({ ...opts, handler: inEventContext(opts.queue, opts.handler), eventsDatabaseUrl }),
    };
  }
  throw new Error('no event transport: set AMQP_URL (RabbitMQ) or EVENTS_DATABASE_URL (the PostgreSQL events database)');
}
