import pg from 'pg';
import { DELIVERY_LIMIT } from './consumer-queue.js';
import { isEventEnvelope } from './event-envelope.js';
import { publisherRefusal } from './event-publishers.js';
import type { ConsumeOptions, TransportConsumer } from './event-transport.js';
import { PG_EVENTS_CHANNEL, topicPattern } from './pg-events.schema.js';
import { createPgListener } from './pg-listener.js';

/** Options of {@link createPgEventsConsumer}. */
export interface PgEventsConsumerOptions extends ConsumeOptions {
  /** The events database, as the consumer's own role (the one its queue was declared for). */
  eventsDatabaseUrl: string;
  /** How long a claimed event is this consumer's before it is handed out again. Default 120000. */
  leaseMs?: number;
  /** Safety-net poll on top of LISTEN; also picks up retries and expired leases. Default 1000. */
  pollIntervalMs?: number;
}

interface Claimed {
  delivery: string;
  sender: string;
  body: unknown;
}

/**
 * Consumes a queue of the events database: claims up to `prefetch` due events under a
 * lease (`FOR UPDATE SKIP LOCKED`, so replicas share the queue), hands each to the
 * handler, and acks (deletes) it when the handler resolves. A handler that throws has the
 * event due again after `retryDelayMs`; a consumer that dies leaves it to its lease's end.
 * Past {@link DELIVERY_LIMIT} claims an event is kept as dead instead of delivered. Wakes
 * on `NOTIFY firewatch_events` and polls as a safety net. The publisher checks are those
 * of the RabbitMQ consumer, against the database role the event was published as.
 */
export function createPgEventsConsumer(opts: PgEventsConsumerOptions): TransportConsumer {
  const { logger, queue } = opts;
  const retryDelayMs = opts.retryDelayMs ?? 1000;
  const leaseMs = opts.leaseMs ?? 120_000;
  const pool = new pg.Pool({ connectionString: opts.eventsDatabaseUrl, max: 2, application_name: `consumer:${queue}` });
  pool.on('error', (err) => logger.warn('events database connection lost', { queue, error: err.message }));
  const inFlight = new Set<Promise<void>>();
  let connected = false;
  let claimFailure: string | null = null;
  let stopping = false;
  let stopped: Promise<void> | null = null;
  let claiming: Promise<void> | null = null;
  let again = false;
  let poll: NodeJS.Timeout | undefined;

  async function settle(sql: string, params: unknown[]): Promise<void> {
    // A lost settle leaves the event to its lease's end: it is delivered again, as at-least-once allows.
    await pool.query(sql, params).catch((err) => logger.warn('could not settle event', { queue, error: (err as Error).message }));
  }

  // Acks of the handlers that finished in the same turn of the event loop go in one statement.
  let acks: { deliveries: string[]; flushed: Promise<void> } | null = null;
  function ack(delivery: string): Promise<void> {
    if (!acks) {
      const batch = { deliveries: [] as string[], flushed: Promise.resolve() };
      batch.flushed = new Promise((resolve) =>
        setImmediate(() => {
          acks = null;
          resolve(settle('SELECT events.ack($1, $2)', [queue, batch.deliveries]));
        }),
      );
      acks = batch;
    }
    acks.deliveries.push(delivery);
    return acks.flushed;
  }

  async function handle(row: Claimed): Promise<void> {
    const envelope = row.body;
    if (!isEventEnvelope(envelope)) {
      logger.error('event is not an envelope, dead-lettering it', { queue, delivery: row.delivery });
      return settle('SELECT events.bury($1, $2, $3)', [queue, row.delivery, 'not an envelope']);
    }
    const refusal = publisherRefusal(row.sender, envelope.type, opts.publishers);
    if (refusal) {
      logger.error('event dropped: its publisher may not speak for it', {
        queue,
        reason: refusal,
        user_id: row.sender,
        event_id: envelope.id,
        type: envelope.type,
      });
      return ack(row.delivery);
    }
    try {
      await opts.handler(envelope);
      await ack(row.delivery);
    } catch (err) {
      logger.warn('event handler failed, event will be redelivered', {
        queue,
        event_id: envelope.id,
        type: envelope.type,
        error: (err as Error).message,
      });
      await settle('SELECT events.retry($1, $2, $3, $4)', [queue, row.delivery, retryDelayMs, (err as Error).message]);
      setTimeout(wake, retryDelayMs + 10).unref();
    }
  }

  async function claim(): Promise<void> {
    again = false;
    while (!stopping && inFlight.size < opts.prefetch) {
      let rows: Claimed[];
      try {
        ({ rows } = await pool.query<Claimed>('SELECT * FROM events.claim($1, $2, $3, $4)', [
          queue,
          opts.prefetch - inFlight.size,
          leaseMs,
          DELIVERY_LIMIT,
        ]));
        connected = true;
      } catch (err) {
        // Once per reason, the first included: an unprovisioned queue fails from the start, and says so.
        const reason = (err as Error).message;
        if (reason !== claimFailure) logger.warn('could not claim events', { queue, error: reason });
        claimFailure = reason;
        connected = false;
        return;
      }
      claimFailure = null;
      if (!rows.length) return;
      for (const row of rows) {
        const p = handle(row).finally(() => {
          inFlight.delete(p);
          wake();
        });
        inFlight.add(p);
      }
    }
  }

  function wake(): void {
    if (stopping) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = claim().finally(() => {
      claiming = null;
      if (again) wake();
    });
  }

  const listener = createPgListener({
    connection: opts.eventsDatabaseUrl,
    channel: PG_EVENTS_CHANNEL,
    logger,
    onNotify: wake,
    onReady: wake,
  });

  async function declare(): Promise<void> {
    // Only an administrator (tests) may declare; service roles find their queue provisioned.
    try {
      await pool.query('INSERT INTO events.queues (name, patterns, consumer) VALUES ($1, $2, current_user) ON CONFLICT (name) DO NOTHING', [
        queue,
        opts.bindings.map(topicPattern),
      ]);
    } catch (err) {
      if ((err as { code?: string }).code !== '42501') throw err;
    }
  }

  async function shutdown(): Promise<void> {
    stopping = true;
    clearInterval(poll);
    await claiming;
    await Promise.allSettled([...inFlight]);
    await listener.stop();
    connected = false;
    await pool.end().catch(() => undefined);
  }

  return {
    async start() {
      await declare().catch((err) => logger.warn('could not declare queue', { queue, error: (err as Error).message }));
      await listener.start();
      poll = setInterval(wake, opts.pollIntervalMs ?? 1000);
      poll.unref();
      await claiming;
      wake();
      await claiming;
    },
    stop() {
      stopped ??= shutdown();
      return stopped;
    },
    get connected() {
      return connected;
    },
  };
}
