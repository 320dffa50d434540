import type { RequestListener } from 'node:http';
import type { Knex } from 'knex';
import type { z } from 'zod';
import { createPrincipalVerifier } from '@firewatch/auth';
import { openDatabase, type Migrations } from '@firewatch/db';
import { createEventTransport, createOutboxRelay, outboxBacklog, type EventTransport, type OutboxRelay } from '@firewatch/events';
import { runService, type ReadinessChecks, type Started } from '@firewatch/http';
import type { Logger } from '@firewatch/logger';
import { createMetrics, observeKnexPool, observeOutbox, relayObserver, type Metrics } from '@firewatch/metrics';
import type { KitAppShell } from './kit-app.js';

/** The variables every kit service's configuration has (`apiServiceFields` and `BODY_LIMIT`). */
export interface KitServiceConfig {
  DATABASE_URL: string;
  /** The service's own broker user (one per service), which the outbox relay publishes as. */
  AMQP_URL?: string;
  /** The events database as the service's own role, when `AMQP_URL` is not set. */
  EVENTS_DATABASE_URL?: string;
  DB_POOL_MAX: number;
  PRINCIPAL_PUBLIC_KEYS: Parameters<typeof createPrincipalVerifier>[0]['publicKeys'];
  BODY_LIMIT: string;
}

/** What a kit service's `start` gets: its configuration, logger, migrated pool and outbox relay. */
export interface KitServiceContext<C> {
  config: C;
  logger: Logger;
  knex: Knex;
  /** Started once `start` returns; `start` may name it in its own readiness checks. */
  relay: OutboxRelay;
  /** Where events travel (RabbitMQ, or the events database); consumers take their queue from it. */
  transport: EventTransport;
  /** The process's metrics (served at `/metrics`), for what `start` opens to record on. */
  metrics: Metrics;
}

/** What a kit service adds to the shell: its app, its own readiness checks, its own stop. */
export interface KitServiceParts {
  /** Builds the app from the shell's inputs (usually the service's `createXApp`). */
  app(shell: KitAppShell): RequestListener;
  /** Added after `database` and `broker`; a check of the same name replaces the shell's. */
  readiness?: ReadinessChecks;
  /** Lets go of what `start` opened; runs before the relay stops and the pool closes. */
  stop?(): Promise<void>;
}

/** Options of {@link runKitService}. */
export interface KitServiceOptions<S extends z.ZodObject> {
  /** The `service` field of log lines; the default audience. */
  name: string;
  schema: S;
  migrations: Migrations;
  /** The audience of the principals the service accepts; default `name`. */
  audience?: string;
  /** Opens what the service alone needs (consumers, jobs, a secret box). */
  start(context: KitServiceContext<z.infer<S>>): Promise<KitServiceParts>;
}

/**
 * The start-up of a kit service, given its configuration and logger: its database
 * (created and migrated), the service's own `start`, then the outbox relay (after
 * `start`, so what it declares on the broker, such as the webhooks dispatcher's queue,
 * exists before the first event leaves), then the app with readiness `database` and
 * `broker`, and metrics of its requests, pool, outbox and relay at `/metrics`. `stop`
 * undoes it in reverse: the service's parts, the relay, the pool.
 */
export async function startKitService<C extends KitServiceConfig>(
  options: { name: string; migrations: Migrations; audience?: string; start(context: KitServiceContext<C>): Promise<KitServiceParts> },
  { config, logger }: { config: C; logger: Logger },
): Promise<Started> {
  const knex = await openDatabase({ url: config.DATABASE_URL, migrations: options.migrations, poolMax: config.DB_POOL_MAX, logger });
  const metrics = createMetrics({ service: options.name });
  observeKnexPool(metrics, knex);
  observeOutbox(metrics, () => outboxBacklog(knex));
  const transport = createEventTransport(config);
  logger.info(`events travel over ${transport.description}`);
  const relay = createOutboxRelay({ knex, transport, logger, observer: relayObserver(metrics) });
  const parts = await options.start({ config, logger, knex, relay, transport, metrics });
  await relay.start();
  const app = parts.app({
    knex,
    logger,
    principals: createPrincipalVerifier({ publicKeys: config.PRINCIPAL_PUBLIC_KEYS, audience: options.audience ?? options.name }),
    bodyLimit: config.BODY_LIMIT,
    metrics,
    readiness: {
      database: () => knex.raw('select 1'),
      broker: async () => {
        if (!relay.stats.connected) throw new Error('broker not connected');
      },
      ...parts.readiness,
    },
  });
  return {
    app,
    async stop() {
      await parts.stop?.();
      await relay.stop();
      await knex.destroy();
    },
  };
}

/**
 * The `main.ts` of a kit service: `runService` (configuration, logger, listening,
 * graceful shutdown) around {@link startKitService}.
 */
export function runKitService<S extends z.ZodObject>(
  options: KitServiceOptions<S> & { schema: z.ZodType<KitServiceConfig> },
): Promise<void> {
  return runService({ name: options.name, schema: options.schema, start: (context) => startKitService(options, context) });
}
