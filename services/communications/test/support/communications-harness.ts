import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createPrincipalVerifier, PRINCIPAL_HEADER } from '@firewatch/auth';
import { migrate } from '@firewatch/db';
import { createOutboxRelay } from '@firewatch/events';
import { createLogger } from '@firewatch/logger';
import { collectEvents, createTestDatabase, listen, signAsGateway, TEST_PRINCIPAL_KEYS, testPrincipal, type EventCollector, type TestDatabase } from '@firewatch/testing';
import { migrations } from '../../migrations/index.js';
import { createCommunicationsApp } from '../../src/app.js';
import { createLiquidPool, type LiquidPool } from '../../src/domain/liquid/render-pool.js';

export const MEDIA = 'application/vnd.api+json';

export interface CallOptions {
  body?: unknown;
  /** Principal overrides (see testPrincipal); null sends no principal. */
  principal?: Record<string, unknown> | null;
  headers?: Record<string, string>;
}

export interface CommunicationsHarness {
  db: TestDatabase;
  /** Events relayed from the outbox through RabbitMQ, when `eventPattern` was given. */
  events?: EventCollector;
  liquid: LiquidPool;
  call(method: string, path: string, options?: CallOptions): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

/**
 * communications over a fresh migrated database, called as the gateway would (a signed
 * principal). With `eventPattern`, the outbox relay runs and events matching it are collected.
 */
export async function startCommunications(options: { eventPattern?: string } = {}): Promise<CommunicationsHarness> {
  const db = await createTestDatabase();
  await migrate(db.knex, migrations);
  const logger = createLogger({ service: 'test', level: 'silent' });
  let events: EventCollector | undefined;
  let relay: ReturnType<typeof createOutboxRelay> | undefined;
  if (options.eventPattern) {
    const exchange = `test.events.${randomUUID()}`;
    events = await collectEvents(process.env.TEST_AMQP_URL!, exchange, options.eventPattern);
    relay = createOutboxRelay({ knex: db.knex as Knex, amqpUrl: process.env.TEST_AMQP_URL!, logger, exchange, pollIntervalMs: 100 });
    await relay.start();
  }
  const liquid = createLiquidPool();
  const server = await listen(createCommunicationsApp({
    knex: db.knex as Knex,
    liquid,
    logger,
    principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'communications' }),
  }));
  return {
    db,
    events,
    liquid,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.principal !== null) headers[PRINCIPAL_HEADER] = await signAsGateway(testPrincipal(opts.principal ?? {}), 'communications', method, path);
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
      await liquid.close();
      await relay?.stop();
      await events?.close();
      await db.drop();
    },
  };
}
