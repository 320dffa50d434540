import { createAmqpConnection, ensureExchange, EVENT_QUEUES, EVENTS_DLX, EVENTS_EXCHANGE } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';

/** Every event may concern a webhook endpoint (the bus's consumers are declared in `EVENT_QUEUES`). */
export const DISPATCHER_BINDINGS = EVENT_QUEUES['webhook-dispatcher'].bindings;
/** Must equal what `createAmqpConsumer` declares (its default), or RabbitMQ refuses the second declaration. */
export const DISPATCHER_DELIVERY_LIMIT = 20;

type Model = Parameters<Parameters<typeof createAmqpConnection>[0]['setup']>[0];

/**
 * Declares the dispatcher's durable queue, its dead-letter queue and the `#` binding,
 * with exactly the arguments `createAmqpConsumer` uses. The webhooks service calls this
 * at start-up, so events published while no dispatcher has ever run (or all are down)
 * wait in the queue instead of being dropped by the exchange as unroutable.
 */
export async function declareDispatcherQueue(model: Model, queue: string): Promise<void> {
  await ensureExchange(model, EVENTS_EXCHANGE, 'topic');
  await ensureExchange(model, EVENTS_DLX, 'direct');
  const ch = await model.createChannel();
  ch.on('error', () => undefined);
  try {
    await ch.assertQueue(`${queue}.dead`, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await ch.bindQueue(`${queue}.dead`, EVENTS_DLX, queue);
    await ch.assertQueue(queue, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-delivery-limit': DISPATCHER_DELIVERY_LIMIT,
        'x-dead-letter-exchange': EVENTS_DLX,
        'x-dead-letter-routing-key': queue,
        'x-dead-letter-strategy': 'at-least-once',
        'x-overflow': 'reject-publish',
      },
    });
    for (const pattern of DISPATCHER_BINDINGS) await ch.bindQueue(queue, EVENTS_EXCHANGE, pattern);
  } finally {
    await ch.close().catch(() => undefined);
  }
}

/**
 * Keeps trying to declare the queue in the background until it succeeds once, then
 * closes its connection. `declared` tells readiness whether it has happened.
 */
export function ensureDispatcherQueue(opts: { amqpUrl: string; logger: Logger; queue: string }) {
  let declared = false;
  const conn = createAmqpConnection({
    url: opts.amqpUrl,
    logger: opts.logger,
    name: 'webhooks:declare-dispatcher-queue',
    async setup(model) {
      await declareDispatcherQueue(model, opts.queue);
      declared = true;
      opts.logger.info('dispatcher queue declared', { queue: opts.queue });
    },
    onUp: () => void conn.close(),
  });
  return {
    start: () => conn.start(),
    stop: () => conn.close(),
    get declared() { return declared; },
  };
}
