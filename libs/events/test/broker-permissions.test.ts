// Each service's broker user, as provisioning makes it, against the real broker.
import { randomBytes, randomUUID } from 'node:crypto';
import amqp, { type ConfirmChannel } from 'amqplib';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import {
  createOutboxRelay, declareEventExchanges, deleteBrokerUser, outboxMigration, provisionBrokerUser, writeEvents, type BusService,
} from '../src/index.js';
import { amqpUrl, deleteTopology, logger, recordMessages, uniqueName, waitUntil } from './support.js';

const management = process.env.TEST_AMQP_MANAGEMENT_URL!;
const exchange = uniqueName('test.events.grants');
const deadLetterExchange = uniqueName('test.events.grants.dlx');
const usersQueue = uniqueName('test.grants.on-call.users');
const prefix = `fw-test-${randomBytes(4).toString('hex')}-`;
const urls: Partial<Record<BusService, string>> = {};
const services: BusService[] = ['auth', 'incident-config', 'on-call', 'webhook-dispatcher'];

beforeAll(async () => {
  await declareEventExchanges(management, { exchange, deadLetterExchange });
  for (const service of services) {
    const password = randomBytes(16).toString('hex');
    await provisionBrokerUser(management, { service, user: `${prefix}${service}`, password, exchange, deadLetterExchange, queue: usersQueue });
    urls[service] = Object.assign(new URL(amqpUrl()), { username: `${prefix}${service}`, password }).toString();
  }
});

afterAll(async () => {
  for (const service of services) await deleteBrokerUser(management, `${prefix}${service}`);
  await deleteTopology({ queues: [usersQueue, `${usersQueue}.dead`], exchanges: [exchange, deadLetterExchange] });
});

interface Outcome { confirmed: boolean; closedWith?: { code?: number; message: string } }

/** Runs `act` on a confirm channel of `service`'s user and reports whether the broker took it or closed the channel. */
async function asService(service: BusService, act: (ch: ConfirmChannel) => Promise<unknown>): Promise<Outcome> {
  const conn = await amqp.connect(urls[service]!);
  conn.on('error', () => undefined);
  try {
    const ch = await conn.createConfirmChannel();
    let closedWith: Outcome['closedWith'];
    ch.on('error', (err: Error & { code?: number }) => { closedWith = { code: err.code, message: err.message }; });
    const closed = new Promise<void>((r) => ch.once('close', () => r()));
    const confirmed = await act(ch).then(() => true, () => false);
    if (!confirmed) await closed;
    return { confirmed, closedWith };
  } finally {
    await conn.close().catch(() => undefined);
  }
}

const envelope = (type: string) => Buffer.from(JSON.stringify({ id: randomUUID(), type, occurred_at: new Date().toISOString(), team_id: 1, data: null }));

function publish(ch: ConfirmChannel, type: string, properties: { userId?: string } = {}, to = exchange): Promise<void> {
  return new Promise((resolve, reject) => {
    ch.publish(to, type, envelope(type), { persistent: true, ...properties }, (err: unknown) => (err ? reject(err) : resolve()));
  });
}

describe('who may publish what', () => {
  it("takes an event from its owner's user, with that user as user-id", async () => {
    const rec = await recordMessages(exchange, 'user.*');
    try {
      expect(await asService('auth', (ch) => publish(ch, 'user.deleted', { userId: `${prefix}auth` }))).toEqual({ confirmed: true, closedWith: undefined });
      await waitUntil(() => rec.messages.length === 1, 5000, 'the event');
      expect(rec.messages[0].properties.userId).toBe(`${prefix}auth`);
    } finally {
      await rec.close();
    }
  });

  it("refuses another service's routing key: the channel is closed with ACCESS_REFUSED", async () => {
    const rec = await recordMessages(exchange, 'user.*');
    try {
      const outcome = await asService('incident-config', (ch) => publish(ch, 'user.deleted', { userId: `${prefix}incident-config` }));
      expect(outcome.confirmed).toBe(false);
      expect(outcome.closedWith).toMatchObject({ code: 403, message: expect.stringMatching(/ACCESS_REFUSED - access to topic 'user\.deleted'/) });
      await new Promise((r) => setTimeout(r, 200));
      expect(rec.messages).toHaveLength(0);
    } finally {
      await rec.close();
    }
  });

  it("refuses a user-id other than the connection's user", async () => {
    const outcome = await asService('incident-config', (ch) => publish(ch, 'environment.created', { userId: `${prefix}auth` }));
    expect(outcome.confirmed).toBe(false);
    expect(outcome.closedWith).toMatchObject({ code: 406, message: expect.stringMatching(/user_id property set to '.*auth' but authenticated user was '.*incident-config'/) });
  });

  it('refuses publishing straight into a queue through the default exchange', async () => {
    const outcome = await asService('incident-config', (ch) => publish(ch, usersQueue, { userId: `${prefix}incident-config` }, ''));
    expect(outcome.closedWith).toMatchObject({ code: 403, message: expect.stringMatching(/ACCESS_REFUSED - access to exchange 'amq.default'/) });
  });

  it('lets the dispatcher publish nothing', async () => {
    const outcome = await asService('webhook-dispatcher', (ch) => publish(ch, 'webhooks_endpoint.updated', { userId: `${prefix}webhook-dispatcher` }));
    expect(outcome.closedWith).toMatchObject({ code: 403, message: expect.stringMatching(/ACCESS_REFUSED/) });
  });

  it('lets no service delete the events exchange', async () => {
    const outcome = await asService('auth', (ch) => ch.deleteExchange(exchange));
    expect(outcome.closedWith).toMatchObject({ code: 403, message: expect.stringMatching(/ACCESS_REFUSED - access to exchange/) });
    expect(await asService('auth', (ch) => ch.checkExchange(exchange))).toMatchObject({ confirmed: true });
  });
});

describe('who may listen to what', () => {
  it('lets on-call bind its own queue to user events only, and declare no other queue', async () => {
    const declare = (ch: ConfirmChannel) => ch.assertQueue(usersQueue, {
      durable: true, arguments: { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': deadLetterExchange, 'x-dead-letter-routing-key': usersQueue },
    });
    expect(await asService('on-call', async (ch) => { await declare(ch); await ch.bindQueue(usersQueue, exchange, 'user.*'); })).toMatchObject({ confirmed: true });
    expect((await asService('on-call', (ch) => ch.bindQueue(usersQueue, exchange, 'secret.*'))).closedWith).toMatchObject({ code: 403, message: expect.stringMatching(/access to topic 'secret\.\*'/) });
    expect((await asService('on-call', (ch) => ch.assertQueue(`${usersQueue}.other`, { durable: false }))).closedWith).toMatchObject({ code: 403 });
    expect((await asService('incident-config', (ch) => ch.consume(usersQueue, () => undefined))).closedWith).toMatchObject({ code: 403 });
  });
});

describe('the outbox relay under a service user', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('fw_events_grants');
    await outboxMigration.up(db.knex);
  });
  afterAll(async () => { await db?.drop(); });

  it("publishes the service's own events as its user and defers a row of another's family", async () => {
    const rec = await recordMessages(exchange, '#');
    const relay = createOutboxRelay({ knex: db.knex, amqpUrl: urls['incident-config']!, logger, exchange, pollIntervalMs: 100 });
    try {
      const [forged, own] = await writeEvents(db.knex, [
        { type: 'user.deleted', team_id: 1, data: { id: '7', type: 'users' } },
        { type: 'environment.created', team_id: 1, data: { id: 'e', type: 'environments' } },
      ]);
      await relay.start();
      await waitUntil(() => rec.messages.length >= 1, 10_000, 'the own event');
      expect(rec.messages.map((m) => [m.fields.routingKey, m.properties.userId, JSON.parse(m.content.toString()).id])).toEqual([
        ['environment.created', `${prefix}incident-config`, own.id],
      ]);
      const row = await db.knex('outbox').where({ id: forged.id }).first();
      expect(row.last_error).toMatch(/ACCESS_REFUSED/);
      expect(await db.knex('outbox').where({ id: own.id }).first()).toBeUndefined();
    } finally {
      await relay.stop();
      await rec.close();
    }
  });
});
