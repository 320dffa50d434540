import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { Knex } from 'knex';
import { createPrincipalVerifier, PRINCIPAL_HEADER, type PrincipalVerifier } from '@firewatch/auth';
import { migrate, type Migrations } from '@firewatch/db';
import { createOutboxRelay } from '@firewatch/events';
import { createLogger, type Logger } from '@firewatch/logger';
import {
  collectEvents,
  createTestDatabase,
  listen,
  signAsGateway,
  TEST_PRINCIPAL_KEYS,
  testPrincipal,
  type EventCollector,
  type TestDatabase,
} from '@firewatch/testing';

const MEDIA = 'application/vnd.api+json';

/** How a test calls the service. */
export interface CallOptions {
  /** A value is sent as JSON; a string as is. */
  body?: unknown;
  /** Principal overrides (see testPrincipal); null sends no principal. */
  principal?: Record<string, unknown> | null;
  headers?: Record<string, string>;
}

/** The service's answer, its body parsed when there is one. */
export interface HarnessAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** A domain service under test. */
export interface ServiceHarness {
  db: TestDatabase;
  /** Events relayed from the outbox through RabbitMQ, when `eventPattern` was given. */
  events?: EventCollector;
  call(method: string, path: string, options?: CallOptions): Promise<HarnessAnswer>;
  close(): Promise<void>;
}

export interface ServiceHarnessOptions {
  /** The principal audience the service verifies (its name). */
  audience: string;
  migrations: Migrations;
  /** With it, the outbox relay runs to a private exchange and events matching it are collected. */
  eventPattern?: string;
  /** The service's app over the harness's database, logger and principal verifier. */
  createApp(deps: { knex: Knex; logger: Logger; principals: PrincipalVerifier }): RequestListener;
  /** Releases what `createApp` started beside the app (a worker pool), after the server closes. */
  onClose?(): Promise<void>;
}

/**
 * A domain service over a fresh migrated database, called as the gateway would (a signed
 * principal): what every service's component tests start from.
 */
export async function startServiceHarness(options: ServiceHarnessOptions): Promise<ServiceHarness> {
  const db = await createTestDatabase();
  await migrate(db.knex, options.migrations);
  const logger = createLogger({ service: 'test', level: 'silent' });
  let events: EventCollector | undefined;
  let relay: ReturnType<typeof createOutboxRelay> | undefined;
  if (options.eventPattern) {
    const exchange = `test.events.${randomUUID()}`;
    events = await collectEvents(process.env.TEST_AMQP_URL!, exchange, options.eventPattern);
    relay = createOutboxRelay({ knex: db.knex as Knex, amqpUrl: process.env.TEST_AMQP_URL!, logger, exchange, pollIntervalMs: 100 });
    await relay.start();
  }
  const principals = createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: options.audience });
  const server = await listen(options.createApp({ knex: db.knex as Knex, logger, principals }));
  return {
    db,
    events,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.principal !== null)
        headers[PRINCIPAL_HEADER] = await signAsGateway(testPrincipal(opts.principal ?? {}), options.audience, method, path);
      if (opts.body !== undefined) headers['content-type'] ??= MEDIA;
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await server.close();
      await options.onClose?.();
      await relay?.stop();
      await events?.close();
      await db.drop();
    },
  };
}
