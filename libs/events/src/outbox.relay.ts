import type { ConfirmChannel } from 'amqplib';
import type { Knex } from 'knex';
import type pg from 'pg';
import type { Logger } from '@firewatch/logger';
import { createAmqpConnection } from './amqp-connection.js';
import { backoffDelay } from './backoff.js';
import { EVENTS_EXCHANGE } from './event-catalog.js';
import { OUTBOX_CHANNEL } from './outbox.migration.js';
import { publishRows } from './outbox.publisher.js';
import { claimRows, deferRow, deleteRows, noteFailure, takeRelayTurn } from './outbox.repository.js';
import { createPgListener } from './pg-listener.js';

/** Options of {@link createOutboxRelay}. */
export interface OutboxRelayOptions {
  knex: Knex;
  amqpUrl: string;
  logger: Logger;
  /** Defaults to `firewatch.events`; tests use their own. */
  exchange?: string;
  /** Rows per claim-publish-confirm cycle. Default 200. */
  batchSize?: number;
  /** Safety-net poll, on top of LISTEN. Default 1000. */
  pollIntervalMs?: number;
  /** How long to wait for publisher confirms before treating a batch as not sent. Default 10000. */
  confirmTimeoutMs?: number;
  /**
   * Default true: replicas take turns (an advisory lock), so events leave in `seq` order
   * across replicas. False lets replicas publish disjoint batches in parallel.
   */
  ordered?: boolean;
  /** Connection for the LISTEN client; defaults to the knex instance's connection settings. */
  listenConnection?: string | pg.ClientConfig;
  /** Connection name shown in RabbitMQ. Default `outbox-relay`. */
  name?: string;
}

/** What `/readyz` and operators look at. */
export interface OutboxRelayStats {
  /** Events confirmed by the broker since start. */
  readonly published: number;
  readonly lastError: string | null;
  readonly lastErrorAt: string | null;
  /** True while a broker connection with a confirm channel is up. */
  readonly connected: boolean;
  /** True while the LISTEN client is connected (polling covers the gaps). */
  readonly listening: boolean;
  /** True while the broker blocks publishing (resource alarm); the relay pauses. */
  readonly blocked: boolean;
}

/** A running outbox relay; see {@link createOutboxRelay}. */
export interface OutboxRelay {
  /** Connects (broker and LISTEN, one attempt each; failures retry in the background) and starts draining. */
  start(): Promise<void>;
  /** Finishes the batch in flight, then closes channel, connection and LISTEN client. Idempotent. */
  stop(): Promise<void>;
  readonly stats: OutboxRelayStats;
  /** @internal Test hook: destroys the broker socket as a network failure would. */
  simulateConnectionLoss(): void;
}

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
 * and later rows overtake it: one poison row cannot stall the service's events.
 */
export function createOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const { knex, logger } = opts;
  const exchange = opts.exchange ?? EVENTS_EXCHANGE;
  const batchSize = opts.batchSize ?? 200;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const confirmTimeoutMs = opts.confirmTimeoutMs ?? 10_000;
  const ordered = opts.ordered ?? true;

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
    name: opts.name ?? 'outbox-relay',
    async setup(model) {
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
      await ch.assertExchange(exchange, 'topic', { durable: true });
      channel = ch;
    },
    onUp: () => wake(),
    onDown: () => { channel = null; },
    onBlockedChange: (blocked) => { if (!blocked) wake(); },
  });

  const listener = createPgListener({
    connection: opts.listenConnection ?? listenConfig(knex),
    channel: OUTBOX_CHANNEL,
    logger,
    onNotify: () => wake(),
    onReady: () => wake(),
  });

  async function runBatch(ch: ConfirmChannel): Promise<{ claimed: number; failed: boolean }> {
    return knex.transaction(async (trx) => {
      if (ordered && !(await takeRelayTurn(trx))) return { claimed: 0, failed: false };
      const rows = await claimRows(trx, batchSize);
      if (!rows.length) return { claimed: 0, failed: false };
      channelError = null;
      const out = await publishRows(ch, rows, {
        exchange,
        confirmTimeoutMs,
        isOpen: () => channel === ch,
        channelError: () => channelError,
      });
      await deleteRows(trx, out.confirmed);
      for (const { row, error } of out.poisoned) {
        logger.error('outbox row refused, deferring it', { event_id: row.id, type: row.type, error });
        await deferRow(trx, row, error);
      }
      if (out.failure) {
        await noteFailure(trx, out.unsent, out.failure.message);
        recordError(out.failure.message);
        logger.warn('outbox batch not fully sent', { error: out.failure.message, confirmed: out.confirmed.length, unsent: out.unsent.length });
        // A confirm timeout on a live, unblocked connection means the channel is stuck: start afresh.
        if (channel === ch && !amqpConn.blocked) amqpConn.reset(out.failure);
      }
      if (out.poisoned.length) recordError(out.poisoned[0].error);
      counters.published += out.confirmed.length;
      return { claimed: rows.length, failed: Boolean(out.failure) };
    });
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
      if (started) return;
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
      get published() { return counters.published; },
      get lastError() { return counters.lastError; },
      get lastErrorAt() { return counters.lastErrorAt; },
      get connected() { return amqpConn.connected && channel !== null; },
      get listening() { return listener.listening; },
      get blocked() { return amqpConn.blocked; },
    },
    simulateConnectionLoss() {
      amqpConn.destroySocket();
    },
  };
}
