import { jest } from '@jest/globals';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import { createAmqpConnection, type AmqpConnection } from '../src/index.js';
import { amqpUrl, deleteTopology, logger, uniqueName, waitUntil } from './support.js';

const exchange = uniqueName('test.events.frames');
const queue = uniqueName('test.events.frames');
let conn: AmqpConnection;
let channel: ConfirmChannel;
let socket: { _write: (...a: unknown[]) => unknown; _writev: (...a: unknown[]) => unknown };

beforeAll(async () => {
  conn = createAmqpConnection({
    url: amqpUrl(),
    logger,
    name: 'frames-test',
    async setup(model: ChannelModel) {
      socket = (model as unknown as { connection: { stream: typeof socket } }).connection.stream;
      channel = await model.createConfirmChannel();
      channel.on('error', () => undefined);
      channel.on('close', () => undefined);
      await channel.assertExchange(exchange, 'topic', { durable: false, autoDelete: true });
      await channel.assertQueue(queue, { durable: false });
      await channel.bindQueue(queue, exchange, '#');
    },
  });
  await conn.start();
});
afterAll(async () => {
  await conn?.close();
  await deleteTopology({ queues: [queue], exchanges: [exchange] });
});

describe("an AMQP connection's frames", () => {
  it('go out in one socket write for the messages published in one tick (one each before), all of them delivered, in order', async () => {
    const write = jest.spyOn(socket, '_write');
    const writev = jest.spyOn(socket, '_writev');
    try {
      for (let i = 0; i < 20; i++) channel.publish(exchange, 'm', Buffer.from(String(i)), { persistent: true });
      await channel.waitForConfirms();
      expect(write.mock.calls.length + writev.mock.calls.length).toBe(1);
    } finally {
      write.mockRestore();
      writev.mockRestore();
    }
    const reader = await amqp.connect(amqpUrl());
    try {
      const ch = await reader.createChannel();
      await waitUntil(async () => (await ch.checkQueue(queue)).messageCount === 20, 5000, 'the 20 messages');
      const bodies: string[] = [];
      for (let msg = await ch.get(queue, { noAck: true }); msg; msg = await ch.get(queue, { noAck: true }))
        bodies.push(msg.content.toString());
      expect(bodies).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    } finally {
      await reader.close();
    }
  });
});
