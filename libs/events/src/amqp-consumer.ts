import type { Channel, ConsumeMessage } from 'amqplib';
import type { Logger } from '@firewatch/logger';
import { createAmqpConnection } from './amqp-connection.js';
import { cancellableSleep } from './backoff.js';
import { ensureConsumerQueue } from './consumer-queue.js';
import { isEventEnvelope, type EventEnvelope } from './event-envelope.js';
import { publisherRefusal, type PublisherUsers } from './event-publishers.js';

/** Options of {@link createAmqpConsumer}. */
export interface AmqpConsumerOptions {
  amqpUrl: string;
  logger: Logger;
  /** Durable quorum queue name; `<queue>.dead` holds what exceeded the delivery limit. */
  queue: string;
  /**
   * Routing-key patterns bound on the exchange when this consumer declares a missing
   * queue itself, which only an administrator may; provisioning binds `EVENT_QUEUES`'.
   */
  bindings: readonly string[];
  /** Unacknowledged messages this consumer may hold. */
  prefetch: number;
  /**
   * The broker user of each publishing service: a message is handled only when its
   * `user-id` is the user of the service that owns its type (`AMQP_PUBLISHERS`).
   */
  publishers: PublisherUsers;
  /** Resolve to ack; throw to have the message redelivered. Must tolerate duplicates (dedupe by `envelope.id`). */
  handler: (envelope: EventEnvelope, msg: ConsumeMessage) => Promise<void>;
  /** Defaults to `firewatch.events`. */
  exchange?: string;
  /** Defaults to `firewatch.events.dlx`. */
  deadLetterExchange?: string;
  /** Deliveries after which the broker dead-letters a message, when this consumer declares the queue. Default `DELIVERY_LIMIT`. */
  deliveryLimit?: number;
  /** Pause before a failed message is handed back, so a failing dependency is not hammered. Default 1000. */
  retryDelayMs?: number;
}

/** A running consumer; see {@link createAmqpConsumer}. */
export interface AmqpConsumer {
  /** Connects and consumes (one attempt; failures retry in the background). */
  start(): Promise<void>;
  /** Stops taking messages, waits for handlers in flight, closes. Idempotent. */
  stop(): Promise<void>;
  readonly connected: boolean;
  /** @internal Test hook: destroys the broker socket as a network failure would. */
  simulateConnectionLoss(): void;
}

/** The acks of one channel; see {@link createAckBatcher}. */
interface AckBatcher {
  /** A message handed to this consumer, in delivery order. */
  received(msg: ConsumeMessage): void;
  /** Acks `msg` (with others, see {@link createAckBatcher}). */
  ack(msg: ConsumeMessage): void;
  /** `msg` is being rejected: no ack may cover it. */
  forget(msg: ConsumeMessage): void;
  /** Sends the acks due now (before the channel closes). */
  flush(): void;
}

/**
 * Acks the messages of one channel as their handlers finish, in one `basic.ack` with
 * `multiple` for each run of finished messages at the head of what the channel holds:
 * the intake resolves a whole batch of events at once, and each ack was a frame the
 * broker settled on its own. An ack goes out once the handlers finishing in the same
 * pass have run (`process.nextTick`), so none waits longer than that: a finished message
 * behind an unfinished one is acked on its own, and a multiple ack only ever covers
 * messages that are all finished (a rejected one is forgotten first, so none covers it).
 */
function createAckBatcher(ch: Channel, settle: (fn: () => void) => void): AckBatcher {
  // Unsettled messages by delivery tag, in delivery order (a Map keeps insertion order).
  const held = new Map<number, { msg: ConsumeMessage; done: boolean }>();
  let scheduled = false;
  function flush(): void {
    scheduled = false;
    let last: ConsumeMessage | null = null;
    let run = 0;
    for (const [tag, entry] of held) {
      if (!entry.done) break;
      held.delete(tag);
      last = entry.msg;
      run++;
    }
    if (last) {
      const upTo = last;
      settle(() => ch.ack(upTo, run > 1));
    }
    for (const [tag, entry] of held) {
      if (!entry.done) continue;
      held.delete(tag);
      settle(() => ch.ack(entry.msg));
    }
  }
  return {
    received(msg) {
      held.set(msg.fields.deliveryTag, { msg, done: false });
    },
    ack(msg) {
      const entry = held.get(msg.fields.deliveryTag);
      if (!entry) return settle(() => ch.ack(msg));
      entry.done = true;
      if (scheduled) return;
      scheduled = true;
      process.nextTick(flush);
    },
    forget(msg) {
      held.delete(msg.fields.deliveryTag);
    },
    flush,
  };
}

/**
 * Consumes events from a durable quorum queue bound to the events exchange, with manual
 * acks and `prefetch`. Provisioning declares the queue; the consumer only checks it
 * (`ensureConsumerQueue`), so its user needs nothing but read on that queue. A handler
 * that resolves acks the message; one that throws has it rejected with requeue
 * (`basic.reject`, which counts toward the delivery limit on every RabbitMQ version,
 * where `basic.nack` no longer does since 4.3); past the delivery limit the broker moves
 * it to `<queue>.dead` through the dead-letter exchange, with no right of the consumer's
 * user. A body that is not an envelope goes there at once. Reconnects like the outbox
 * relay.
 *
 * Only the service that owns an event family may speak for it (docs/security.md, "The
 * event bus"): a message without `user-id`, or whose type belongs to a service other
 * than the one its `user-id` names, is logged and acked without reaching the handler, so
 * it changes nothing and is not redelivered.
 */
export function createAmqpConsumer(opts: AmqpConsumerOptions): AmqpConsumer {
  const { logger, queue } = opts;
  const retryDelayMs = opts.retryDelayMs ?? 1000;
  let channel: Channel | null = null;
  let channelAcks: AckBatcher | null = null;
  let consumerTag: string | null = null;
  let stopped: Promise<void> | null = null;
  const inFlight = new Set<Promise<void>>();
  const sleeps = new Set<ReturnType<typeof cancellableSleep>>();

  // Acks on a channel that died in the meantime throw; the broker redelivers those messages anyway.
  const settle = (fn: () => void) => {
    try {
      fn();
    } catch {
      /* channel gone */
    }
  };

  async function handle(ch: Channel, acks: AckBatcher, msg: ConsumeMessage): Promise<void> {
    const userId: string | undefined = msg.properties.userId;
    if (!userId) return drop(acks, msg, 'no user-id');
    let envelope: unknown;
    try {
      envelope = JSON.parse(msg.content.toString('utf8'));
    } catch {
      /* reported below */
    }
    if (!isEventEnvelope(envelope)) {
      logger.error('event message is not an envelope, dead-lettering it', { queue, message_id: msg.properties.messageId });
      acks.forget(msg);
      settle(() => ch.reject(msg, false));
      return;
    }
    const refusal = publisherRefusal(userId, envelope.type, opts.publishers);
    if (refusal) return drop(acks, msg, refusal, envelope);
    try {
      await opts.handler(envelope, msg);
      acks.ack(msg);
    } catch (err) {
      logger.warn('event handler failed, message will be redelivered', {
        queue,
        event_id: envelope.id,
        type: envelope.type,
        error: (err as Error).message,
      });
      if (!stopped && retryDelayMs > 0) {
        const sleep = cancellableSleep(retryDelayMs);
        sleeps.add(sleep);
        await sleep.done;
        sleeps.delete(sleep);
      }
      acks.forget(msg);
      settle(() => ch.reject(msg, true));
    }
  }

  function drop(acks: AckBatcher, msg: ConsumeMessage, reason: string, envelope?: EventEnvelope): void {
    logger.error('event dropped: its publisher may not speak for it', {
      queue,
      reason,
      user_id: msg.properties.userId,
      routing_key: msg.fields.routingKey,
      event_id: envelope?.id ?? msg.properties.messageId,
      type: envelope?.type,
    });
    acks.ack(msg);
  }

  const conn = createAmqpConnection({
    url: opts.amqpUrl,
    logger,
    name: `consumer:${queue}`,
    async setup(model) {
      await ensureConsumerQueue(model, {
        queue,
        bindings: opts.bindings,
        exchange: opts.exchange,
        deadLetterExchange: opts.deadLetterExchange,
        deliveryLimit: opts.deliveryLimit,
      });
      const ch = await model.createChannel();
      ch.on('error', (err: Error) => logger.warn('consumer channel error', { queue, error: err.message }));
      ch.on('close', () => {
        if (channel !== ch) return;
        channel = null;
        conn.reset(new Error('consumer channel closed'));
      });
      await ch.prefetch(opts.prefetch);
      const acks = createAckBatcher(ch, settle);
      channel = ch;
      channelAcks = acks;
      const reply = await ch.consume(
        queue,
        (msg) => {
          if (!msg) {
            // The broker cancelled us (queue deleted): reconnecting waits until it is provisioned again.
            if (channel === ch) conn.reset(new Error('consumer cancelled by broker'));
            return;
          }
          acks.received(msg);
          const p = handle(ch, acks, msg).finally(() => inFlight.delete(p));
          inFlight.add(p);
        },
        { noAck: false },
      );
      consumerTag = reply.consumerTag;
    },
    onDown: () => {
      channel = null;
    },
  });

  async function shutdown(): Promise<void> {
    const ch = channel;
    if (ch && consumerTag) await ch.cancel(consumerTag).catch(() => undefined);
    for (const s of sleeps) s.cancel();
    await Promise.allSettled([...inFlight]);
    channelAcks?.flush();
    channel = null;
    if (ch) await ch.close().catch(() => undefined);
    await conn.close();
  }

  return {
    start: () => conn.start(),
    stop() {
      stopped ??= shutdown();
      return stopped;
    },
    get connected() {
      return conn.connected && channel !== null;
    },
    simulateConnectionLoss: () => conn.destroySocket(),
  };
}
