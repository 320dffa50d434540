import { randomUUID } from 'node:crypto';
import amqp, { type ChannelModel, type ConfirmChannel, type ConsumeMessage } from 'amqplib';
import { createAmqpConsumer, type AmqpConsumer, type AmqpConsumerOptions, type EventEnvelope } from '../src/index.js';
import { amqpUrl, deleteTopology, logger, uniqueName, waitUntil } from './support.js';

const exchange = uniqueName('test.events.consumer');
const dlx = uniqueName('test.events.consumer.dlx');
const queues: string[] = [];
const consumers: AmqpConsumer[] = [];
let conn: ChannelModel;
let ch: ConfirmChannel;

beforeAll(async () => {
  conn = await amqp.connect(amqpUrl());
  ch = await conn.createConfirmChannel();
  ch.on('error', () => undefined);
  await ch.assertExchange(exchange, 'topic', { durable: true });
});
afterEach(async () => {
  await Promise.all(consumers.splice(0).map((c) => c.stop()));
});
afterAll(async () => {
  await conn?.close();
  await deleteTopology({ queues: queues.flatMap((q) => [q, `${q}.dead`]), exchanges: [exchange, dlx] });
});

function consumer(handler: AmqpConsumerOptions['handler'], extra: Partial<AmqpConsumerOptions> = {}) {
  const queue = uniqueName('test.consumer');
  queues.push(queue);
  const c = createAmqpConsumer({
    amqpUrl: amqpUrl(),
    logger,
    queue,
    exchange,
    deadLetterExchange: dlx,
    // The suite publishes incident-config's events as the test administrator.
    bindings: ['incident.*', 'service.created'],
    prefetch: 5,
    retryDelayMs: 0,
    handler,
    publishers: { 'incident-config': 'guest' },
    ...extra,
  });
  consumers.push(c);
  return { c, queue };
}

async function publish(
  type: string,
  body?: Buffer,
  properties: { userId?: string } = { userId: 'guest' },
  routingKey = type,
): Promise<EventEnvelope> {
  const env: EventEnvelope = { id: randomUUID(), type, occurred_at: new Date().toISOString(), team_id: 1, data: { id: 'x' } };
  ch.publish(exchange, routingKey, body ?? Buffer.from(JSON.stringify(env)), { persistent: true, messageId: env.id, ...properties });
  await ch.waitForConfirms();
  return env;
}

const ready = async (queue: string) => (await ch.checkQueue(queue)).messageCount;

it('declares a durable quorum queue with a dead-letter queue, and acks handled messages', async () => {
  const seen: EventEnvelope[] = [];
  const { c, queue } = consumer(async (env) => {
    seen.push(env);
  });
  await c.start();
  expect(c.connected).toBe(true);

  const sent = [await publish('incident.created'), await publish('service.created'), await publish('service.updated')];
  await waitUntil(() => seen.length >= 2, 5000, 'two deliveries');
  await new Promise((r) => setTimeout(r, 200));
  // service.updated matches no binding.
  expect(seen.map((e) => e.id)).toEqual([sent[0].id, sent[1].id]);
  expect(seen[0]).toEqual(sent[0]);

  // Unacked messages would return to the queue when the consumer's channel closes.
  await c.stop();
  expect(await ready(queue)).toBe(0);
  expect(await ready(`${queue}.dead`)).toBe(0);
  // Re-declaring with other arguments fails when the broker holds a quorum queue with these.
  const probe = await conn.createChannel();
  probe.on('error', () => undefined);
  await expect(probe.assertQueue(queue, { durable: true })).rejects.toThrow(/PRECONDITION_FAILED/);
});

it('redelivers a message whose handler failed, then acks it', async () => {
  const calls: { id: string; redelivered: boolean }[] = [];
  const { c, queue } = consumer(async (env, msg: ConsumeMessage) => {
    calls.push({ id: env.id, redelivered: msg.fields.redelivered });
    if (calls.length === 1) throw new Error('database unavailable');
  });
  await c.start();
  const env = await publish('incident.updated');
  await waitUntil(() => calls.length >= 2, 5000, 'a redelivery');
  expect(calls).toEqual([
    { id: env.id, redelivered: false },
    { id: env.id, redelivered: true },
  ]);
  await new Promise((r) => setTimeout(r, 200));
  expect(calls).toHaveLength(2);
  await c.stop();
  expect(await ready(queue)).toBe(0);
});

it('dead-letters a message past the delivery limit, and a body that is not an envelope at once', async () => {
  let calls = 0;
  const { c, queue } = consumer(
    async () => {
      calls++;
      throw new Error('always fails');
    },
    { deliveryLimit: 2 },
  );
  await c.start();
  const env = await publish('incident.resolved');
  await publish('incident.cancelled', Buffer.from('not json'));
  await waitUntil(async () => (await ready(`${queue}.dead`)) === 2, 10_000, 'two dead-lettered messages');
  expect(calls).toBeGreaterThanOrEqual(2);
  expect(calls).toBeLessThanOrEqual(3);
  const bodies: string[] = [];
  for (let m = await ch.get(`${queue}.dead`); m; m = await ch.get(`${queue}.dead`)) {
    bodies.push(m.content.toString());
    ch.ack(m);
  }
  expect(bodies.sort()).toEqual([JSON.stringify(env), 'not json'].sort());
});

it('reconnects after losing its connection and keeps consuming', async () => {
  const seen: string[] = [];
  const { c } = consumer(async (env) => {
    seen.push(env.id);
  });
  await c.start();
  c.simulateConnectionLoss();
  await waitUntil(() => !c.connected, 5000, 'the loss to be noticed');
  await waitUntil(() => c.connected, 10_000, 'reconnect');
  const env = await publish('incident.mitigated');
  await waitUntil(() => seen.includes(env.id), 5000, 'delivery after reconnect');
});

it('stop waits for the handler in flight and acks its message', async () => {
  let finished = false;
  let started = false;
  const { c, queue } = consumer(async () => {
    started = true;
    await new Promise((r) => setTimeout(r, 300));
    finished = true;
  });
  await c.start();
  await publish('incident.deleted');
  await waitUntil(() => started, 5000, 'the handler to start');
  await Promise.all([c.stop(), c.stop()]);
  expect(finished).toBe(true);
  expect(c.connected).toBe(false);
  expect(await ready(queue)).toBe(0);
});

describe('acks', () => {
  type Ack = (msg: ConsumeMessage, allUpTo?: boolean) => void;
  let sent: { tag: number; multiple: boolean }[];
  let owner: { ack: Ack };
  let original: Ack;
  beforeEach(() => {
    // amqplib's Channel.prototype (the consumer's channel is one; this suite's confirm channel extends it).
    let proto = Object.getPrototypeOf(ch) as { ack: Ack };
    while (!Object.prototype.hasOwnProperty.call(proto, 'ack')) proto = Object.getPrototypeOf(proto);
    owner = proto;
    original = proto.ack;
    sent = [];
    proto.ack = function (this: unknown, msg, allUpTo) {
      sent.push({ tag: msg.fields.deliveryTag, multiple: allUpTo === true });
      return original.call(this, msg, allUpTo);
    };
  });
  afterEach(() => {
    owner.ack = original;
  });

  it('acks messages whose handlers finish together in one basic.ack with multiple', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: string[] = [];
    const { c, queue } = consumer(async (env) => {
      seen.push(env.id);
      await gate;
    });
    await c.start();
    for (let i = 0; i < 5; i++) await publish('incident.updated');
    await waitUntil(() => seen.length === 5, 5000, 'five deliveries');
    expect(sent).toEqual([]);
    release();
    await waitUntil(() => sent.length > 0, 5000, 'the ack');
    await c.stop();
    expect(sent).toEqual([{ tag: 5, multiple: true }]);
    expect(await ready(queue)).toBe(0);
  });

  it('acks a finished message behind an unfinished one on its own, and never covers one that is then rejected', async () => {
    const seen: { id: string; redelivered: boolean }[] = [];
    const { c, queue } = consumer(async (env, msg) => {
      seen.push({ id: env.id, redelivered: msg.fields.redelivered });
      if (env.type === 'incident.created' && !msg.fields.redelivered) {
        await waitUntil(() => sent.length === 2, 5000, 'the two behind it acked');
        throw new Error('fails once');
      }
    });
    await c.start();
    const head = await publish('incident.created');
    await publish('incident.updated');
    await publish('incident.updated');
    await waitUntil(() => seen.filter((s) => s.id === head.id).length === 2 && sent.length === 3, 5000, 'the redelivered head acked');
    await c.stop();
    expect(sent).toEqual([
      { tag: 2, multiple: false },
      { tag: 3, multiple: false },
      { tag: 4, multiple: false },
    ]);
    expect(seen.filter((s) => s.redelivered).map((s) => s.id)).toEqual([head.id]);
    expect(await ready(queue)).toBe(0);
    expect(await ready(`${queue}.dead`)).toBe(0);
  });
});

describe('only the owner of an event family may speak for it', () => {
  it("acks without handling a message with no user-id, or whose body claims another service's type", async () => {
    const seen: string[] = [];
    const { c, queue } = consumer(async (env) => {
      seen.push(env.id);
    });
    await c.start();
    await publish('incident.created', undefined, {});
    // Routed under incident-config's family, but the body claims auth's user.deleted.
    await publish('user.deleted', undefined, { userId: 'guest' }, 'incident.created');
    const genuine = await publish('incident.updated');
    await waitUntil(() => seen.length > 0, 5000, 'the genuine event');
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([genuine.id]);
    expect(await ready(queue)).toBe(0);
    expect(await ready(`${queue}.dead`)).toBe(0);
  });

  it("acks without handling an event published by a user other than its owner's", async () => {
    const seen: string[] = [];
    const { c, queue } = consumer(
      async (env) => {
        seen.push(env.id);
      },
      {
        bindings: ['incident.*', 'service.created', 'api_key.*'],
        publishers: { auth: 'guest', 'incident-config': 'firewatch-incident-config' },
      },
    );
    await c.start();
    await publish('incident.created');
    await publish('service.created');
    // auth's, which guest speaks for here: once it is in, the ones before it were judged (one queue, in order).
    const marker = await publish('api_key.created');
    await waitUntil(() => seen.length > 0, 5000, 'the marker');
    expect(seen).toEqual([marker.id]);
    expect(await ready(`${queue}.dead`)).toBe(0);
  });
});
