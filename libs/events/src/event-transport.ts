import type { Logger } from '@firewatch/logger';
import type { EventEnvelope } from './event-envelope.js';
import type { PublisherUsers } from './event-publishers.js';
import type { BatchOutcome, OutboxRow } from './outbox.publisher.js';

/**
 * The publishing side of a transport, as the outbox relay drives it: it connects and
 * reconnects by itself, and tells per row whether the transport took it for good.
 */
export interface TransportPublisher {
  /** Connects once; resolves after that attempt whatever its outcome (retries continue in the background). */
  start(): Promise<void>;
  /** Closes for good; idempotent. */
  close(): Promise<void>;
  readonly connected: boolean;
  /** True while the transport refuses publishing for now (a broker's resource alarm). */
  readonly blocked: boolean;
  /** Publishes `rows` in order; rows not reported confirmed stay in the outbox. */
  publish(rows: OutboxRow[]): Promise<BatchOutcome>;
  /** Drops the connection after a failed batch and reconnects with back-off. */
  reset(reason: Error): void;
  /** Test hook: loses the connection as a network failure would. */
  simulateConnectionLoss(): void;
}

/** What a transport publisher calls back. */
export interface TransportPublisherHooks {
  logger: Logger;
  /** Connection name (RabbitMQ shows it; PostgreSQL as `application_name`). */
  name: string;
  /** Called when the publisher (re)connected or was unblocked: the relay drains at once. */
  onReady(): void;
}

/** Options of {@link EventTransport.consume}. */
export interface ConsumeOptions {
  logger: Logger;
  /** The consumer's durable queue; `<queue>.dead` (or dead rows) hold what exceeded the delivery limit. */
  queue: string;
  /** Topic patterns (`user.*`) bound when this consumer declares a missing queue itself, which only an administrator may. */
  bindings: readonly string[];
  /** Events this consumer holds unacknowledged at once. */
  prefetch: number;
  /** The identity each publishing service publishes as: an event is handled only when its family's owner published it. */
  publishers: PublisherUsers;
  /** Resolve to ack; throw to have the event delivered again. Must tolerate duplicates (dedupe by `envelope.id`). */
  handler(envelope: EventEnvelope): Promise<void>;
  /** Defaults to `firewatch.events` (RabbitMQ only; tests use their own). */
  exchange?: string;
  /** Pause before a failed event is handed back. Default 1000. */
  retryDelayMs?: number;
}

/** A running consumer of either transport. */
export interface TransportConsumer {
  /** Connects and consumes (one attempt; failures retry in the background). */
  start(): Promise<void>;
  /** Stops taking events, waits for handlers in flight, closes. Idempotent. */
  stop(): Promise<void>;
  readonly connected: boolean;
}

/**
 * How events travel between services: RabbitMQ in production, compose and CI, or one
 * shared PostgreSQL database on a machine with Node only (docs/decisions.md, "Events
 * without a broker"). Both give the same envelopes, at-least-once delivery, one durable
 * queue per consumer bound by topic patterns, and publishers known by an identity the
 * transport verifies (the broker's `user-id`, the database's `session_user`).
 */
export interface EventTransport {
  readonly kind: 'amqp' | 'postgres';
  /** Where events go, without credentials, for logs. */
  readonly description: string;
  /** The publishing side of an outbox relay. */
  publisher(hooks: TransportPublisherHooks & { exchange?: string; confirmTimeoutMs?: number }): TransportPublisher;
  consume(opts: ConsumeOptions): TransportConsumer;
}
