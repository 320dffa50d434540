import amqp from 'amqplib';

export interface EventCollector {
  events: { routingKey: string; body: Record<string, unknown> }[];
  /** Resolves once `predicate` holds for the collected events, or rejects after `timeoutMs`. */
  waitFor(predicate: (events: EventCollector['events']) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Binds a private, auto-deleted queue to `exchange` and collects what arrives,
 * so a suite sees the events it caused without consuming anyone else's.
 */
export async function collectEvents(url: string, exchange: string, pattern = '#'): Promise<EventCollector> {
  const conn = await amqp.connect(url);
  const ch = await conn.createChannel();
  ch.on('error', () => undefined);
  await ch.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true });
  await ch.bindQueue(queue, exchange, pattern);
  const events: EventCollector['events'] = [];
  await ch.consume(queue, (msg) => {
    if (!msg) return;
    events.push({ routingKey: msg.fields.routingKey, body: JSON.parse(msg.content.toString()) });
    ch.ack(msg);
  });
  return {
    events,
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(events)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for events; got ${JSON.stringify(events.map((e) => e.routingKey))}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      await ch.close().catch(() => undefined);
      await conn.close().catch(() => undefined);
    },
  };
}
