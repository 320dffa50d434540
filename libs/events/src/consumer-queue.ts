import type { ChannelModel } from 'amqplib';
import { EVENTS_DLX, EVENTS_EXCHANGE } from './event-catalog.js';
import { ensureExchange } from './exchange-topology.js';

/** Deliveries after which the broker dead-letters a message (RabbitMQ 4's default, made explicit for 3.x). */
export const DELIVERY_LIMIT = 20;

/** A consumer's queue as it is declared: its name, bindings and dead-lettering. */
export interface ConsumerQueueSpec {
  queue: string;
  /** Routing-key patterns bound on the events exchange. */
  bindings: readonly string[];
  /** Defaults to `firewatch.events`. */
  exchange?: string;
  /** Defaults to `firewatch.events.dlx`. */
  deadLetterExchange?: string;
  /** Default {@link DELIVERY_LIMIT}. */
  deliveryLimit?: number;
}

/** The queues and bindings of one consumer, in the order they are declared. */
export interface ConsumerQueueTopology {
  /** `<queue>.dead` first, so nothing is dead-lettered before it exists. */
  queues: { name: string; arguments: Record<string, unknown> }[];
  bindings: { exchange: string; queue: string; routingKey: string }[];
}

/**
 * A consumer's durable quorum queue, dead-lettering past the delivery limit through the
 * dead-letter exchange into `<queue>.dead`, and their bindings. Provisioning declares
 * this through the management API, and {@link ensureConsumerQueue} through AMQP, from
 * the same description, so the two never disagree (RabbitMQ refuses a second
 * declaration with other arguments).
 */
export function consumerQueueTopology(spec: ConsumerQueueSpec): ConsumerQueueTopology {
  const { queue } = spec;
  const exchange = spec.exchange ?? EVENTS_EXCHANGE;
  const dlx = spec.deadLetterExchange ?? EVENTS_DLX;
  const dead = `${queue}.dead`;
  return {
    queues: [
      { name: dead, arguments: { 'x-queue-type': 'quorum' } },
      {
        name: queue,
        arguments: {
          'x-queue-type': 'quorum',
          'x-delivery-limit': spec.deliveryLimit ?? DELIVERY_LIMIT,
          'x-dead-letter-exchange': dlx,
          'x-dead-letter-routing-key': queue,
          // At-least-once dead-lettering (needs reject-publish overflow) so nothing past the limit is lost.
          'x-dead-letter-strategy': 'at-least-once',
          'x-overflow': 'reject-publish',
        },
      },
    ],
    bindings: [{ exchange: dlx, queue: dead, routingKey: queue }, ...spec.bindings.map((routingKey) => ({ exchange, queue, routingKey }))],
  };
}

/**
 * Makes sure a consumer's queue exists. A passive check comes first: it needs no right,
 * and service users may neither declare nor bind (docs/security.md, "The event bus"),
 * since provisioning declares every consumer's queue. Only a missing queue is declared,
 * with its exchanges and bindings, which an administrator (`guest` in tests) may; a
 * service user gets an error that says to provision the broker, and its connection
 * retries.
 */
export async function ensureConsumerQueue(model: ChannelModel, spec: ConsumerQueueSpec): Promise<void> {
  const probe = await model.createChannel();
  probe.on('error', () => undefined);
  try {
    await probe.checkQueue(spec.queue);
    await probe.close().catch(() => undefined);
    return;
  } catch (err) {
    if ((err as { code?: number }).code !== 404) throw err;
  }
  await ensureExchange(model, spec.exchange ?? EVENTS_EXCHANGE, 'topic');
  await ensureExchange(model, spec.deadLetterExchange ?? EVENTS_DLX, 'direct');
  const topology = consumerQueueTopology(spec);
  const ch = await model.createChannel();
  ch.on('error', () => undefined);
  try {
    for (const q of topology.queues) await ch.assertQueue(q.name, { durable: true, arguments: q.arguments });
    for (const b of topology.bindings) await ch.bindQueue(b.queue, b.exchange, b.routingKey);
  } catch (err) {
    if ((err as { code?: number }).code !== 403) throw err;
    throw new Error(
      `queue '${spec.queue}' does not exist and this broker user may not declare it: provision the broker (scripts/provision-broker.mjs)`,
      { cause: err },
    );
  } finally {
    await ch.close().catch(() => undefined);
  }
}
