import { createAmqpPublisher } from './amqp-publisher.js';
import { backoffDelay } from './backoff.js';
import type { TransportPublisher } from './event-transport.js';
import { onOutboxCommit } from './outbox-commits.js';
import { OUTBOX_CHANNEL } from './outbox.migration.js';
import { relayBatch, type BatchContext } from './outbox.batch.js';
import { createPgListener, listenConnectionOf } from './pg-listener.js';
import type { OutboxRelay, OutboxRelayOptions } from './outbox.relay.types.js';

export type { OutboxRelay, OutboxRelayObserver, OutboxRelayOptions, OutboxRelayStats } from './outbox.relay.types.js';

/**
 * Moves outbox rows to the event transport (RabbitMQ, or the events database on a machine
 * with Node only): claims due rows in `seq` order (`FOR UPDATE SKIP LOCKED`),
 * publishes them (RabbitMQ: persistent on a confirm channel), and deletes them in the same
 * transaction once the transport confirmed them, so a row is never lost (a crash may publish it twice;
 * consumers dedupe by event id). Wakes when a write of this process commits outbox rows
 * (outbox-commits.ts), on `NOTIFY firewatch_outbox` (writers of earlier releases, during a
 * rolling deploy, still send it) and on its poll, the safety net for rows another process
 * wrote; one drain loop at a time, looping while batches come back full.
 *
 * Failures: when the transport fails (connection loss, confirm timeout, no
 * drain), the rows stay due and the relay backs off, so order is kept across outages.
 * A row refused for itself (nacked, unencodable) is deferred with exponential back-off
 * and later rows overtake it: one poison row cannot stall the service's events. So is a
 * row of a family the service's broker user may not publish (ACCESS_REFUSED).
 *
 * Each event carries its publisher's identity as the transport verifies it (the broker
 * user as `user-id`, the database role), so consumers know which service published it.
 */
export function createOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const { knex, logger } = opts;
  const batchSize = opts.batchSize ?? 200;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const ordered = opts.ordered ?? true;

  let started = false;
  let stopping = false;
  let stopped: Promise<void> | null = null;
  let draining: Promise<void> | null = null;
  let again = false;
  let failures = 0;
  let pausedUntil = 0;
  let poll: NodeJS.Timeout | undefined;
  let unsubscribe = (): unknown => undefined;
  const counters = { published: 0, lastError: null as string | null, lastErrorAt: null as string | null };

  function recordError(message: string): void {
    counters.lastError = message;
    counters.lastErrorAt = new Date().toISOString();
  }

  const hooks = {
    logger,
    name: opts.name ?? `${process.env.SERVICE_NAME ?? 'firewatch'}:outbox-relay`,
    onReady: () => wake(),
    exchange: opts.exchange,
    confirmTimeoutMs: opts.confirmTimeoutMs,
  };
  const publisher: TransportPublisher = opts.transport
    ? opts.transport.publisher(hooks)
    : createAmqpPublisher({ ...hooks, amqpUrl: requireAmqpUrl(opts.amqpUrl) });

  const listener = createPgListener({
    connection: opts.listenConnection ?? listenConnectionOf(knex),
    channel: OUTBOX_CHANNEL,
    logger,
    onNotify: () => wake(),
    onReady: () => wake(),
  });

  const batchContext: BatchContext = { knex, logger, batchSize, ordered };

  async function runBatch(): Promise<{ claimed: number; failed: boolean }> {
    const started = performance.now();
    const result = await relayBatch(publisher, batchContext);
    counters.published += result.published;
    if (result.published) opts.observer?.published(result.published, (performance.now() - started) / 1000);
    if (result.rowError) recordError(result.rowError);
    if (result.failure) {
      recordError(result.failure.message);
      publisher.reset(result.failure);
    }
    return { claimed: result.claimed, failed: Boolean(result.failure) };
  }

  async function drain(): Promise<void> {
    again = false;
    while (!stopping && publisher.connected && !publisher.blocked && Date.now() >= pausedUntil) {
      let result: { claimed: number; failed: boolean };
      try {
        result = await runBatch();
      } catch (err) {
        logger.error('outbox relay batch failed', { error: (err as Error).message });
        recordError((err as Error).message);
        result = { claimed: 0, failed: true };
      }
      if (result.failed) {
        pausedUntil = Date.now() + backoffDelay(++failures, { initialMs: 500, maxMs: 30_000 });
        return;
      }
      failures = 0;
      if (result.claimed < batchSize) return;
    }
  }

  function wake(): void {
    if (!started || stopping) return;
    if (draining) {
      again = true;
      return;
    }
    draining = drain().finally(() => {
      draining = null;
      if (again) wake();
    });
  }

  async function shutdown(): Promise<void> {
    stopping = true;
    clearInterval(poll);
    unsubscribe();
    await draining;
    await listener.stop();
    await publisher.close();
  }

  return {
    async start() {
      if (started || stopped) return; // not restartable: make a new relay
      started = true;
      await Promise.all([publisher.start(), listener.start()]);
      poll = setInterval(wake, pollIntervalMs);
      poll.unref();
      unsubscribe = onOutboxCommit(wake);
      wake();
    },
    stop() {
      stopped ??= shutdown();
      return stopped;
    },
    stats: {
      get published() {
        return counters.published;
      },
      get lastError() {
        return counters.lastError;
      },
      get lastErrorAt() {
        return counters.lastErrorAt;
      },
      get connected() {
        return publisher.connected;
      },
      get listening() {
        return listener.listening;
      },
      get blocked() {
        return publisher.blocked;
      },
    },
    simulateConnectionLoss() {
      publisher.simulateConnectionLoss();
    },
  };
}

function requireAmqpUrl(url: string | undefined): string {
  if (!url) throw new Error('createOutboxRelay: pass amqpUrl or transport');
  return url;
}
