import type { ConfirmChannel } from 'amqplib';
import { createAmqpConnection } from './amqp-connection.js';
import { EVENTS_EXCHANGE } from './event-catalog.js';
import { brokerUserOf } from './event-publishers.js';
import type { TransportPublisher, TransportPublisherHooks } from './event-transport.js';
import { ensureExchange } from './exchange-topology.js';
import { publishRows } from './outbox.publisher.js';

/** Options of {@link createAmqpPublisher}. */
export interface AmqpPublisherOptions extends TransportPublisherHooks {
  amqpUrl: string;
  /** Defaults to `firewatch.events`. */
  exchange?: string;
  /** How long to wait for publisher confirms before a batch counts as not sent. Default 10000. */
  confirmTimeoutMs?: number;
}

/**
 * Publishes outbox rows to the events exchange on a confirm channel, persistent, with the
 * connection's user as each message's `user-id` (the broker verifies it, so consumers
 * know which service published). Reconnects by itself; `blocked` follows the broker's
 * resource alarms.
 */
export function createAmqpPublisher(opts: AmqpPublisherOptions): TransportPublisher {
  const { logger } = opts;
  const exchange = opts.exchange ?? EVENTS_EXCHANGE;
  const confirmTimeoutMs = opts.confirmTimeoutMs ?? 10_000;
  const userId = brokerUserOf(opts.amqpUrl);
  let channel: ConfirmChannel | null = null;
  let channelError: Error | null = null;
  // The channel the last batch went out on: a failure resets only that one, not a newer one.
  let batchChannel: ConfirmChannel | null = null;

  const conn = createAmqpConnection({
    url: opts.amqpUrl,
    logger,
    name: opts.name,
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
        conn.reset(channelError ?? new Error('relay channel closed'));
      });
      channel = ch;
    },
    onUp: () => opts.onReady(),
    onDown: () => {
      channel = null;
    },
    onBlockedChange: (blocked) => {
      if (!blocked) opts.onReady();
    },
  });

  return {
    start: () => conn.start(),
    async close() {
      const ch = channel;
      channel = null;
      if (ch) await ch.close().catch(() => undefined);
      await conn.close();
    },
    get connected() {
      return conn.connected && channel !== null;
    },
    get blocked() {
      return conn.blocked;
    },
    async publish(rows) {
      const ch = channel;
      if (!ch) return { confirmed: [], poisoned: [], unsent: rows, failure: new Error('relay channel closed') };
      channelError = null;
      batchChannel = ch;
      return publishRows(ch, rows, {
        exchange,
        userId,
        confirmTimeoutMs,
        isOpen: () => channel === ch,
        channelError: () => channelError,
      });
    },
    reset(reason) {
      // A confirm timeout on a live, unblocked connection means the channel is stuck: start afresh.
      if (channel !== null && channel === batchChannel && !conn.blocked) conn.reset(reason);
    },
    simulateConnectionLoss: () => conn.destroySocket(),
  };
}
