import type { Knex } from 'knex';
import type pg from 'pg';
import type { Logger } from '@firewatch/logger';
import type { EventTransport } from './event-transport.js';

/** Options of {@link createOutboxRelay}. */
export interface OutboxRelayOptions {
  knex: Knex;
  /** RabbitMQ, as the service's own broker user; or pass `transport`. */
  amqpUrl?: string;
  /** Where events go (see `createEventTransport`); takes the place of `amqpUrl`. */
  transport?: EventTransport;
  logger: Logger;
  /** RabbitMQ only. Defaults to `firewatch.events`; tests use their own. */
  exchange?: string;
  /** Rows per claim-publish-confirm cycle. Default 200. */
  batchSize?: number;
  /** Safety-net poll, on top of LISTEN. Default 1000. */
  pollIntervalMs?: number;
  /** How long to wait for publisher confirms before treating a batch as not sent. Default 10000. */
  confirmTimeoutMs?: number;
  /**
   * Default true: replicas take turns (an advisory lock), so events leave in `seq` order
   * across replicas. False lets replicas publish disjoint batches in parallel.
   */
  ordered?: boolean;
  /** Connection for the LISTEN client; defaults to the knex instance's connection settings. */
  listenConnection?: string | pg.ClientConfig;
  /** Connection name shown in RabbitMQ. Default `<SERVICE_NAME>:outbox-relay`. */
  name?: string;
  /** Told of each batch the transport confirmed (metrics: `relayObserver` of `@firewatch/metrics`). */
  observer?: OutboxRelayObserver;
}

/** What the relay reports as it publishes. */
export interface OutboxRelayObserver {
  /** A batch of `events` was confirmed `seconds` after its rows were claimed. */
  published(events: number, seconds: number): void;
}

/** What `/readyz` and operators look at. */
export interface OutboxRelayStats {
  /** Events confirmed by the transport since start. */
  readonly published: number;
  readonly lastError: string | null;
  readonly lastErrorAt: string | null;
  /** True while the transport is connected (RabbitMQ: a connection with a confirm channel). */
  readonly connected: boolean;
  /** True while the LISTEN client is connected (polling covers the gaps). */
  readonly listening: boolean;
  /** True while the broker blocks publishing (resource alarm; never over PostgreSQL); the relay pauses. */
  readonly blocked: boolean;
}

/** A running outbox relay; see {@link createOutboxRelay}. */
export interface OutboxRelay {
  /** Connects (transport and LISTEN, one attempt each; failures retry in the background) and starts draining. */
  start(): Promise<void>;
  /** Finishes the batch in flight, then closes channel, connection and LISTEN client. Idempotent. */
  stop(): Promise<void>;
  readonly stats: OutboxRelayStats;
  /** @internal Test hook: loses the transport's connection as a network failure would. */
  simulateConnectionLoss(): void;
}
