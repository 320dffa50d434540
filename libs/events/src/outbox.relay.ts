import type { ConfirmChannel } from 'amqplib';
import type { Knex } from 'knex';
import type pg from 'pg';
import { createAmqpConnection } from './amqp-connection.js';
import { backoffDelay } from './backoff.js';
import { EVENTS_EXCHANGE } from './event-catalog.js';
import { brokerUserOf } from './event-publishers.js';
import { ensureExchange } from './exchange-topology.js';
import { OUTBOX_CHANNEL } from './outbox.migration.js';
import { relayBatch, type BatchContext } from './outbox.batch.js';
import { createPgListener } from './pg-listener.js';
import type { OutboxRelay, OutboxRelayOptions } from './outbox.relay.types.js';

export type { OutboxRelay, OutboxRelayObserver, OutboxRelayOptions, OutboxRelayStats } from './outbox.relay.types.js';

function listenConfig(knex: Knex): string | pg.ClientConfig {
  const connection = (knex.client as { config: Knex.Config }).config.connection;
  if (!connection || typeof connection === 'function') {
    throw new Error('createOutboxRelay: pass listenConnection (the knex connection is not a static setting)');
  }
  return connection as string | pg.ClientConfig;
}

/**
 * Moves outbox rows to RabbitMQ: claims due rows in `seq` order (`FOR UPDATE SKIP LOCKED`),
 * publishes them persistent on a confirm channel, and deletes them in the same
 * transaction once confirmed, so a row is never lost (a crash may publish it twice;
 * consumers dedupe by event id). Wakes on `NOTIFY firewatch_outbox` and polls as a
 * safety net; one drain loop at a time, looping while batches come back full.
 *
 * Failures: when the broker or channel fails (connection loss, confirm timeout, no
 * drain), the rows stay due and the relay backs off, so order is kept across outages.
 * A row refused for itself (nacked, unencodable) is deferred with exponential back-off
 * and later rows overtake it: one poison row cannot stall the service's events. So is a
 * row of a family the service's broker user may not publish (ACCESS_REFUSED).
 *
 * Each message carries the connection's user as `user-id`, which the broker verifies,
 * so consumers know which service published it.
 */
export function createOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const { knex, logger } = opts;
  const exchange = opts.exchange ?? EVENTS_EXCHANGE;
  const batchSize = opts.batchSize ?? 200;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const confirmTimeoutMs = opts.confirmTimeoutMs ?? 10_000;
  const ordered = opts.ordered ?? true;
  const userId = brokerUserOf(opts.amqpUrl);

  let channel: ConfirmChannel | null = null;
  let channelError: Error | null = null;
  let started = false;
  let stopping = false;
  let stopped: Promise<void> | null = null;
  let draining: Promise<void> | null = null;
  let again = false;
  let failures = 0;
  let pausedUntil = 0;
  let poll: NodeJS.Timeout | undefined;
  const counters = { published: 0, lastError: null as string | null, lastErrorAt: null as string | null };

  function recordError(message: string): void {
    counters.lastError = message;
    counters.lastErrorAt = new Date().toISOString();
  }

  const amqpConn = createAmqpConnection({
    url: opts.amqpUrl,
    logger,
    name: opts.name ?? `${process.env.SERVICE_NAME ?? 'firewatch'}:outbox-relay`,
    async setup(model) {
      await ensureExchange(model, exchange, 'topic');
      const ch = await model.createConfirmChannel();
      ch.on('error', (err: Error) => {
        channelError = err;
        logger.warn('outbox relay channel error', { error: err.message });
      });
      ch.on('close', () => {
        if (channel !== ch) return;
        channel = null;
        amqpConn.reset(channelError ?? new Error('relay channel closed'));
      });
      channel = ch;
    },
    onUp: () => wake(),
    onDown: () => {
      channel = null;
    },
    onBlockedChange: (blocked) => {
      if (!blocked) wake();
    },
  });

  const listener = createPgListener({
    connection: opts.listenConnection ?? listenConfig(knex),
    channel: OUTBOX_CHANNEL,
    logger,
    onNotify: () => wake(),
    onReady: () => wake(),
  });

  const batchContext = (ch: ConfirmChannel): BatchContext => ({
    knex,
    logger,
    exchange,
    userId,
    batchSize,
    confirmTimeoutMs,
    ordered,
    isOpen: () => channel === ch,
    channelError: () => channelError,
    resetChannelError: () => {
      channelError = null;
    },
  });

  async function runBatch(ch: ConfirmChannel): Promise<{ claimed: number; failed: boolean }> {
    const started = performance.now();
    const result = await relayBatch(ch, batchContext(ch));
    counters.published += result.published;
    if (result.published) opts.observer?.published(result.published, (performance.now() - started) / 1000);
    if (result.rowError) recordError(result.rowError);
    if (result.failure) {
      recordError(result.failure.message);
      // A confirm timeout on a live, unblocked connection means the channel is stuck: start afresh.
      if (channel === ch && !amqpConn.blocked) amqpConn.reset(result.failure);
    }
    return { claimed: result.claimed, failed: Boolean(result.failure) };
  }

  async function drain(): Promise<void> {
    again = false;
    while (!stopping && channel && !amqpConn.blocked && Date.now() >= pausedUntil) {
      let result: { claimed: number; failed: boolean };
      try {
        result = await runBatch(channel);
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
    await draining;
    await listener.stop();
    const ch = channel;
    channel = null;
    if (ch) await ch.close().catch(() => undefined);
    await amqpConn.close();
  }

  return {
    async start() {
      if (started || stopped) return; // not restartable: make a new relay
      started = true;
      await Promise.all([amqpConn.start(), listener.start()]);
      poll = setInterval(wake, pollIntervalMs);
      poll.unref();
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
        return amqpConn.connected && channel !== null;
      },
      get listening() {
        return listener.listening;
      },
      get blocked() {
        return amqpConn.blocked;
      },
    },
    simulateConnectionLoss() {
      amqpConn.destroySocket();
    },
  };
}
