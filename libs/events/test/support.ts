// Shared helpers for the events suites (not a test file: the name does not end in .test.ts).
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import amqp, { type ConsumeMessage } from 'amqplib';
import { createLogger } from '@firewatch/logger';

export const logger = createLogger({ service: 'events-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export function amqpUrl(): string {
  const url = process.env.TEST_AMQP_URL;
  if (!url) throw new Error('TEST_AMQP_URL is not set: run through the Jest config');
  return url;
}

export function uniqueName(prefix: string): string {
  return `${prefix}.${Date.now().toString(36)}.${randomBytes(3).toString('hex')}`;
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Records whole messages (properties included), unlike collectEvents which keeps bodies only. */
export async function recordMessages(exchange: string, pattern = '#') {
  const conn = await amqp.connect(amqpUrl());
  const ch = await conn.createChannel();
  ch.on('error', () => undefined);
  await ch.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true });
  await ch.bindQueue(queue, exchange, pattern);
  const messages: ConsumeMessage[] = [];
  await ch.consume(queue, (msg) => {
    if (msg) {
      messages.push(msg);
      ch.ack(msg);
    }
  });
  return { messages, close: () => conn.close().catch(() => undefined) };
}

/** Deletes test exchanges and queues from the broker. */
export async function deleteTopology({ exchanges = [], queues = [] }: { exchanges?: string[]; queues?: string[] }): Promise<void> {
  const conn = await amqp.connect(amqpUrl());
  try {
    for (const q of queues) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      await ch.deleteQueue(q).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
    for (const x of exchanges) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      await ch.deleteExchange(x).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
  } finally {
    await conn.close();
  }
}

/**
 * A TCP proxy in front of the broker, so a test can make it unreachable (`down`) or
 * silently swallow traffic (`blackhole`) the way a broken network does.
 */
export async function startBrokerProxy() {
  const target = new URL(amqpUrl());
  const sockets = new Set<net.Socket>();
  const state = { down: false, blackhole: false };
  const server = net.createServer((client) => {
    if (state.down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 5672), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (d) => {
      if (!state.blackhole) upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (!state.blackhole) client.write(d);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = new URL(target.toString());
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    url: url.toString(),
    get connections() {
      return sockets.size / 2;
    },
    down() {
      state.down = true;
      dropAll();
    },
    up() {
      state.down = false;
    },
    blackhole(on: boolean) {
      state.blackhole = on;
      if (!on) dropAll();
    },
    close: () =>
      new Promise<void>((r) => {
        dropAll();
        server.close(() => r());
      }),
  };
}
