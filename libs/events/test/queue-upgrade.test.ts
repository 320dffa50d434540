// Provisioning run again over a deployment of an earlier version: the consumer's queue is kept, its bindings follow the catalog.
import amqp, { type ChannelModel } from 'amqplib';
import { consumerQueueTopology, declareEventExchanges, declareEventQueue, EVENT_QUEUES } from '../src/index.js';
import { amqpUrl, deleteTopology, uniqueName } from './support.js';

const management = process.env.TEST_AMQP_MANAGEMENT_URL!;
const exchange = uniqueName('test.events.upgrade');
const deadLetterExchange = uniqueName('test.events.upgrade.dlx');
const queue = uniqueName('test.upgrade.on-call.users');
let admin: ChannelModel;

beforeAll(async () => {
  admin = await amqp.connect(amqpUrl());
});
afterAll(async () => {
  await admin?.close().catch(() => undefined);
  await deleteTopology({ exchanges: [exchange, deadLetterExchange], queues: [queue, `${queue}.dead`] });
});

async function boundKeys(): Promise<string[]> {
  const url = new URL(management);
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  const res = await fetch(`${url.origin}/api/bindings/%2F/e/${encodeURIComponent(exchange)}/q/${encodeURIComponent(queue)}`, {
    headers: { authorization },
  });
  return ((await res.json()) as { routing_key: string }[]).map((b) => b.routing_key).sort();
}

describe("on-call's queue on an upgrade", () => {
  it('keeps the queue and what it holds, binds the families of the catalog, and unbinds what it no longer names', async () => {
    // The queue as the first version provisioned it: users only, and a binding since dropped from the catalog.
    await declareEventExchanges(management, { exchange, deadLetterExchange });
    const ch = await admin.createChannel();
    for (const q of consumerQueueTopology({ queue, bindings: [], exchange, deadLetterExchange }).queues)
      await ch.assertQueue(q.name, { durable: true, arguments: q.arguments });
    await ch.bindQueue(queue, exchange, 'user.*');
    await ch.bindQueue(queue, exchange, 'shift_override.*');
    ch.publish(exchange, 'user.created', Buffer.from('{}'));
    await ch.close();

    await declareEventQueue(management, { consumer: 'on-call', queue, exchange, deadLetterExchange });
    expect(await boundKeys()).toEqual([...EVENT_QUEUES['on-call'].bindings].sort());
    expect(EVENT_QUEUES['on-call'].bindings).toEqual(expect.arrayContaining(['user.*', 'group.*', 'service.*', 'functionality.*']));
    const check = await admin.createChannel();
    expect((await check.checkQueue(queue)).messageCount).toBe(1);
    // Again: nothing changes.
    await declareEventQueue(management, { consumer: 'on-call', queue, exchange, deadLetterExchange });
    expect(await boundKeys()).toEqual([...EVENT_QUEUES['on-call'].bindings].sort());
    await check.close();
  });
});
