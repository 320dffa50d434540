// Each service's broker user, as provisioning makes it, against the real broker.
import { randomBytes, randomUUID } from 'node:crypto';
import amqp, { type Channel, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import {
  createAmqpConsumer,
  createOutboxRelay,
  declareEventExchanges,
  declareEventQueue,
  deleteBrokerUser,
  outboxMigration,
  provisionBrokerUser,
  writeEvents,
  type AmqpConsumerOptions,
  type BusService,
  type EventEnvelope,
} from '../src/index.js';
import { ensureConsumerQueue } from '../src/consumer-queue.js';
import { amqpUrl, deleteTopology, logger, recordMessages, uniqueName, waitUntil } from './support.js';

const management = process.env.TEST_AMQP_MANAGEMENT_URL!;
const exchange = uniqueName('test.events.grants');
const deadLetterExchange = uniqueName('test.events.grants.dlx');
const queues = {
  'on-call': uniqueName('test.grants.on-call.users'),
  'incident-config': uniqueName('test.grants.incident-config.groups'),
  'webhook-dispatcher': uniqueName('test.grants.dispatcher'),
};
const usersQueue = queues['on-call'];
const dispatcherQueue = queues['webhook-dispatcher'];
const prefix = `fw-test-${randomBytes(4).toString('hex')}-`;
const urls: Partial<Record<BusService, string>> = {};
const services: BusService[] = ['auth', 'incident-config', 'on-call', 'webhooks', 'webhook-dispatcher'];
const user = (service: BusService) => `${prefix}${service}`;
let admin: ChannelModel;
let adminChannel: Channel;

// As provisioning does: the administrator declares exchanges, queues and bindings; then the users.
beforeAll(async () => {
  await declareEventExchanges(management, { exchange, deadLetterExchange });
  for (const consumer of ['on-call', 'incident-config', 'webhook-dispatcher'] as const) {
    await declareEventQueue(management, { consumer, queue: queues[consumer], exchange, deadLetterExchange });
  }
  for (const service of services) {
    const password = randomBytes(16).toString('hex');
    const queue = service === 'on-call' || service === 'incident-config' || service === 'webhook-dispatcher' ? queues[service] : undefined;
    await provisionBrokerUser(management, { service, user: user(service), password, exchange, queue });
    urls[service] = Object.assign(new URL(amqpUrl()), { username: user(service), password }).toString();
  }
  admin = await amqp.connect(amqpUrl());
  adminChannel = await admin.createChannel();
});

// Each test starts with empty queues.
afterEach(async () => {
  for (const q of Object.values(queues).flatMap((q) => [q, `${q}.dead`])) await adminChannel.purgeQueue(q);
});

afterAll(async () => {
  await admin?.close().catch(() => undefined);
  for (const service of services) await deleteBrokerUser(management, user(service));
  await deleteTopology({ queues: Object.values(queues).flatMap((q) => [q, `${q}.dead`]), exchanges: [exchange, deadLetterExchange] });
});

interface Outcome {
  confirmed: boolean;
  closedWith?: { code?: number; message: string };
}

/** Runs `act` on a confirm channel of `service`'s user and reports whether the broker took it or closed the channel. */
async function asService(service: BusService, act: (ch: ConfirmChannel) => Promise<unknown>): Promise<Outcome> {
  const conn = await amqp.connect(urls[service]!);
  conn.on('error', () => undefined);
  try {
    const ch = await conn.createConfirmChannel();
    let closedWith: Outcome['closedWith'];
    ch.on('error', (err: Error & { code?: number }) => {
      closedWith = { code: err.code, message: err.message };
    });
    const closed = new Promise<void>((r) => ch.once('close', () => r()));
    const confirmed = await act(ch).then(
      () => true,
      () => false,
    );
    if (!confirmed) await closed;
    return { confirmed, closedWith };
  } finally {
    await conn.close().catch(() => undefined);
  }
}

const envelope = (type: string) =>
  Buffer.from(JSON.stringify({ id: randomUUID(), type, occurred_at: new Date().toISOString(), team_id: 1, data: null }));

function publish(ch: ConfirmChannel, type: string, properties: { userId?: string } = {}, to = exchange): Promise<void> {
  return new Promise((resolve, reject) => {
    ch.publish(to, type, envelope(type), { persistent: true, ...properties }, (err: unknown) => (err ? reject(err) : resolve()));
  });
}

const refused = { closedWith: { code: 403, message: expect.stringMatching(/ACCESS_REFUSED/) } };
const messages = async (queue: string) => (await adminChannel.checkQueue(queue)).messageCount;

describe('who may publish what', () => {
  it("takes an event from its owner's user, with that user as user-id", async () => {
    const rec = await recordMessages(exchange, 'user.*');
    try {
      expect(await asService('auth', (ch) => publish(ch, 'user.deleted', { userId: user('auth') }))).toEqual({
        confirmed: true,
        closedWith: undefined,
      });
      await waitUntil(() => rec.messages.length === 1, 5000, 'the event');
      expect(rec.messages[0].properties.userId).toBe(user('auth'));
    } finally {
      await rec.close();
    }
  });

  it("refuses another service's routing key: the channel is closed with ACCESS_REFUSED", async () => {
    const rec = await recordMessages(exchange, 'user.*');
    try {
      const outcome = await asService('incident-config', (ch) => publish(ch, 'user.deleted', { userId: user('incident-config') }));
      expect(outcome.confirmed).toBe(false);
      expect(outcome.closedWith).toMatchObject({
        code: 403,
        message: expect.stringMatching(/ACCESS_REFUSED - access to topic 'user\.deleted'/),
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(rec.messages).toHaveLength(0);
    } finally {
      await rec.close();
    }
  });

  it("refuses a user-id other than the connection's user", async () => {
    const outcome = await asService('incident-config', (ch) => publish(ch, 'environment.created', { userId: user('auth') }));
    expect(outcome.confirmed).toBe(false);
    expect(outcome.closedWith).toMatchObject({
      code: 406,
      message: expect.stringMatching(/user_id property set to '.*auth' but authenticated user was '.*incident-config'/),
    });
  });

  it('refuses publishing straight into a queue through the default exchange', async () => {
    const outcome = await asService('incident-config', (ch) => publish(ch, usersQueue, { userId: user('incident-config') }, ''));
    expect(outcome.closedWith).toMatchObject({
      code: 403,
      message: expect.stringMatching(/ACCESS_REFUSED - access to exchange 'amq.default'/),
    });
  });

  it('lets the dispatcher publish nothing, not even to the dead-letter exchange', async () => {
    const outcome = await asService('webhook-dispatcher', (ch) =>
      publish(ch, 'webhooks_endpoint.updated', { userId: user('webhook-dispatcher') }),
    );
    expect(outcome.closedWith).toMatchObject({ code: 403, message: expect.stringMatching(/ACCESS_REFUSED/) });
    // Dead-lettering is the broker's own: the dispatcher need not (and may not) write there.
    const dead = await asService('webhook-dispatcher', (ch) =>
      publish(ch, dispatcherQueue, { userId: user('webhook-dispatcher') }, deadLetterExchange),
    );
    expect(dead.closedWith).toMatchObject({
      code: 403,
      message: expect.stringMatching(/ACCESS_REFUSED - access to exchange '.*grants\.dlx/),
    });
    expect(await messages(`${dispatcherQueue}.dead`)).toBe(0);
  });

  it('lets no service delete the events exchange', async () => {
    const outcome = await asService('auth', (ch) => ch.deleteExchange(exchange));
    expect(outcome.closedWith).toMatchObject({ code: 403, message: expect.stringMatching(/ACCESS_REFUSED - access to exchange/) });
    expect(await asService('auth', (ch) => ch.checkExchange(exchange))).toMatchObject({ confirmed: true });
  });
});

describe('who may listen to what', () => {
  it("lets the webhooks service see that the dispatcher's queue exists, and neither read, purge nor delete it", async () => {
    await asService('incident-config', (ch) => publish(ch, 'incident.created', { userId: user('incident-config') }));
    await waitUntil(async () => (await messages(dispatcherQueue)) === 1, 5000, 'the event in the queue');
    expect(await asService('webhooks', (ch) => ch.checkQueue(dispatcherQueue))).toEqual({ confirmed: true, closedWith: undefined });
    expect(await asService('webhooks', (ch) => ch.get(dispatcherQueue))).toMatchObject(refused);
    expect(await asService('webhooks', (ch) => ch.purgeQueue(dispatcherQueue))).toMatchObject(refused);
    expect(await asService('webhooks', (ch) => ch.deleteQueue(dispatcherQueue))).toMatchObject(refused);
    expect(await asService('webhooks', (ch) => ch.consume(dispatcherQueue, () => undefined))).toMatchObject(refused);
    expect(await messages(dispatcherQueue)).toBe(1);
  });

  it('lets no consumer declare, bind or delete a queue, its own included, nor bind to the dead-letter exchange', async () => {
    const same = { durable: true, arguments: { 'x-queue-type': 'quorum' } };
    expect(await asService('on-call', (ch) => ch.assertQueue(usersQueue, same))).toMatchObject(refused);
    expect(await asService('on-call', (ch) => ch.assertQueue(`${usersQueue}.other`, { durable: false }))).toMatchObject(refused);
    expect(await asService('on-call', (ch) => ch.bindQueue(usersQueue, exchange, 'secret.*'))).toMatchObject(refused);
    // The dispatcher's dead letters, and every event of the exchange into the dead-letter one.
    expect(await asService('on-call', (ch) => ch.bindQueue(usersQueue, deadLetterExchange, dispatcherQueue))).toMatchObject(refused);
    expect(await asService('on-call', (ch) => ch.bindExchange(deadLetterExchange, exchange, '#'))).toMatchObject(refused);
    expect(await asService('on-call', (ch) => ch.deleteQueue(usersQueue))).toMatchObject(refused);
    expect(await asService('webhook-dispatcher', (ch) => ch.bindQueue(dispatcherQueue, exchange, 'user.*'))).toMatchObject(refused);
    expect(await asService('webhook-dispatcher', (ch) => ch.get(`${dispatcherQueue}.dead`))).toMatchObject(refused);
    expect(await asService('on-call', (ch) => ch.consume(dispatcherQueue, () => undefined))).toMatchObject(refused);
    expect(await asService('incident-config', (ch) => ch.consume(usersQueue, () => undefined))).toMatchObject(refused);
  });

  it("binds the dispatcher's queue to every family webhooks may subscribe to, and not to users", async () => {
    // Confirmed in turn, so the user event was routed before the incident event.
    await asService('auth', (ch) => publish(ch, 'user.created', { userId: user('auth') }));
    await asService('auth', (ch) => publish(ch, 'api_key.created', { userId: user('auth') }));
    await asService('incident-config', (ch) => publish(ch, 'incident.created', { userId: user('incident-config') }));
    await waitUntil(async () => (await messages(dispatcherQueue)) === 2, 5000, 'two events');
    const types: string[] = [];
    for (let m = await adminChannel.get(dispatcherQueue); m; m = await adminChannel.get(dispatcherQueue)) types.push(m.fields.routingKey);
    expect(types).toEqual(['api_key.created', 'incident.created']);
  });

  it("binds incident-config's queue to auth's group events alone, which only incident-config's user may read", async () => {
    const groupsQueue = queues['incident-config'];
    await asService('auth', (ch) => publish(ch, 'user.created', { userId: user('auth') }));
    await asService('auth', (ch) => publish(ch, 'group.created', { userId: user('auth') }));
    await asService('incident-config', (ch) => publish(ch, 'service.created', { userId: user('incident-config') }));
    await waitUntil(async () => (await messages(groupsQueue)) === 1, 5000, 'the group event');
    expect(await asService('on-call', (ch) => ch.get(groupsQueue))).toMatchObject(refused);
    expect(await asService('incident-config', (ch) => ch.bindQueue(groupsQueue, exchange, 'user.*'))).toMatchObject(refused);
    const got = await asService('incident-config', async (ch) => {
      const m = await ch.get(groupsQueue, { noAck: true });
      if (!m || m.fields.routingKey !== 'group.created') throw new Error(`not the group event: ${m && m.fields.routingKey}`);
    });
    expect(got).toEqual({ confirmed: true, closedWith: undefined });
  });
});

describe('consumers under their own users', () => {
  const consumers: { stop(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(consumers.splice(0).map((c) => c.stop()));
  });

  function consumer(service: 'on-call' | 'webhook-dispatcher', handler: AmqpConsumerOptions['handler'], queue: string = queues[service]) {
    const c = createAmqpConsumer({
      amqpUrl: urls[service]!,
      logger,
      queue,
      exchange,
      deadLetterExchange,
      bindings: ['#'],
      prefetch: 5,
      retryDelayMs: 0,
      handler,
      publishers: { auth: user('auth'), 'incident-config': user('incident-config') },
    });
    consumers.push(c);
    return c;
  }

  it('start on the provisioned queue with read alone, take their events, and have the broker dead-letter what they reject', async () => {
    const seen: EventEnvelope[] = [];
    const c = consumer('on-call', async (env) => {
      if (env.type === 'user.deleted') throw new Error('always fails');
      seen.push(env);
    });
    await c.start();
    expect(c.connected).toBe(true);
    await asService('auth', async (ch) => {
      await publish(ch, 'user.created', { userId: user('auth') });
      await publish(ch, 'user.deleted', { userId: user('auth') });
      ch.publish(exchange, 'user.updated', Buffer.from('not json'), { userId: user('auth') });
      await ch.waitForConfirms();
    });
    // The failing one past the delivery limit (20), the body that is no envelope at once.
    await waitUntil(async () => (await messages(`${usersQueue}.dead`)) === 2, 15_000, 'two dead-lettered messages');
    expect(seen.map((e) => e.type)).toEqual(['user.created']);
    expect(await messages(usersQueue)).toBe(0);
  });

  it('do not start on a queue provisioning has not declared, and say so', async () => {
    const missing = uniqueName('test.grants.missing');
    const c = consumer('on-call', async () => undefined, missing);
    await c.start();
    expect(c.connected).toBe(false);
    const conn = await amqp.connect(urls['on-call']!);
    try {
      await expect(ensureConsumerQueue(conn, { queue: missing, bindings: ['user.*'], exchange, deadLetterExchange })).rejects.toThrow(
        `queue '${missing}' does not exist and this broker user may not declare it: provision the broker`,
      );
    } finally {
      await conn.close();
    }
    const probe = await admin.createChannel();
    probe.on('error', () => undefined);
    await expect(probe.checkQueue(missing)).rejects.toThrow(/NOT_FOUND/);
  });
});

describe('the outbox relay under a service user', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('fw_events_grants');
    await outboxMigration.up(db.knex);
  });
  afterAll(async () => {
    await db?.drop();
  });

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
        ['environment.created', user('incident-config'), own.id],
      ]);
      const row = await db.knex('outbox').where({ id: forged.id }).first();
      expect(row.last_error).toMatch(/ACCESS_REFUSED/);
      // The broker routes the event before the relay's batch commits its delete: wait for the commit.
      await waitUntil(async () => (await db.knex('outbox').where({ id: own.id }).first()) === undefined, 5000, 'the own row deleted');
    } finally {
      await relay.stop();
      await rec.close();
    }
  });
});
