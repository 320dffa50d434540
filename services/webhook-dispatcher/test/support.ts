// Shared set-up of the dispatcher component suites (not a test file).
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import amqp from 'amqplib';
import type { Knex } from 'knex';
import { migrate } from '@firewatch/db';
import { createLogger } from '@firewatch/logger';
import type { DeliveryRecorder } from '@firewatch/metrics';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { createSecretBox } from '@firewatch/secret-box';
import { generateSecret, migrations } from '@firewatch/webhooks/shared';
import { configSchema } from '../src/config.js';
import { createDispatcher } from '../src/dispatcher.js';

export const logger = createLogger({ service: 'dispatcher-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
export const SECRET = 'd'.repeat(32);
export const secretBox = createSecretBox({ keys: [], devKeySeed: SECRET });

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A local webhook receiver; `respond` decides each answer. */
export async function startReceiver(
  respond: (r: Received, n: number) => { status: number; headers?: Record<string, string>; body?: string } = () => ({ status: 200 }),
) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(r);
      const answer = respond(r, received.length);
      res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export async function createWebhooksDb(): Promise<TestDatabase> {
  const db = await createTestDatabase('fw_disp_test');
  await migrate(db.knex, migrations);
  return db;
}

/** An endpoint row as the webhooks service stores it (header values sealed unless `plainHeaders`, the pre-encryption form). */
export async function insertEndpoint(
  knex: Knex,
  values: {
    team_id: number;
    url: string;
    event_types?: string[];
    custom_headers?: { name: string; value: string }[];
    plainHeaders?: boolean;
    secret?: string;
  },
) {
  const secret = values.secret ?? generateSecret();
  const headers = values.plainHeaders
    ? values.custom_headers
    : values.custom_headers?.map((h) => ({ name: h.name, sealed: secretBox.seal(h.value), hint: '' }));
  const [row] = await knex('webhooks_endpoints')
    .insert({
      team_id: values.team_id,
      name: `ep-${randomUUID()}`,
      slug: `ep-${randomUUID()}`,
      url: values.url,
      event_types: JSON.stringify(values.event_types ?? []),
      custom_headers: JSON.stringify(headers ?? []),
      secret_ciphertext: secretBox.seal(secret),
      secret_hint: secret.slice(-4),
    })
    .returning('*');
  return { ...row, secret } as { id: string; secret: string; team_id: number };
}

export function startDispatcher(knex: Knex, queue: string, env: Record<string, string> = {}, deliveries?: DeliveryRecorder) {
  const config = configSchema.parse({
    DATABASE_URL: 'postgres://unused/x',
    AMQP_URL: process.env.TEST_AMQP_URL,
    DEV_KEY_SEED: SECRET,
    // The suites publish incident-config's events as the test administrator (see publisher).
    AMQP_PUBLISHERS: 'incident-config=guest',
    WEBHOOK_QUEUE: queue,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    WEBHOOK_RETRY_SCHEDULE_MS: '200,200,200',
    WEBHOOK_RETRY_JITTER: '0',
    WEBHOOK_POLL_INTERVAL_MS: '50',
    WEBHOOK_TIMEOUT_MS: '2000',
    ...env,
  });
  return createDispatcher(config, { knex, logger, deliveries });
}

/** Publishes envelopes straight into the dispatcher's queue, as `guest` speaking for incident-config. */
export async function publisher(queue: string) {
  const conn = await amqp.connect(process.env.TEST_AMQP_URL!);
  const ch = await conn.createConfirmChannel();
  return {
    async send(events: Record<string, unknown>[]) {
      for (const e of events)
        ch.sendToQueue(queue, Buffer.from(JSON.stringify(e)), { persistent: true, messageId: String(e.id), userId: 'guest' });
      await ch.waitForConfirms();
    },
    async close(deleteQueues = true) {
      if (deleteQueues) for (const q of [queue, `${queue}.dead`]) await ch.deleteQueue(q).catch(() => undefined);
      await conn.close().catch(() => undefined);
    },
  };
}

export const uniqueQueue = () => `webhook-dispatcher.test.${randomBytes(4).toString('hex')}`;
export const randomTeam = () => 1_000_000 + Math.floor(Math.random() * 1_000_000_000);

export function envelope(
  team_id: number,
  type = 'environment.created',
  data: unknown = { id: randomUUID(), type: 'environments', attributes: { name: 'x' } },
) {
  return { id: randomUUID(), type, occurred_at: new Date().toISOString(), team_id, data };
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition') {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
