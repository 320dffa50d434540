import { createAmqpConnection } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';

/**
 * Waits, in the background, until the dispatcher's queue exists, then closes its
 * connection; `declared` tells readiness. Provisioning declares that queue and its
 * bindings (scripts/provision-broker.mjs), so events published while no dispatcher has
 * ever run (or all are down) wait there instead of being dropped by the exchange as
 * unroutable. This service only checks it passively, which needs no right: its broker
 * user may neither read, purge nor delete the queue (docs/security.md, "The event bus").
 */
export function ensureDispatcherQueue(opts: { amqpUrl: string; logger: Logger; queue: string }) {
  let declared = false;
  const conn = createAmqpConnection({
    url: opts.amqpUrl,
    logger: opts.logger,
    name: 'webhooks:check-dispatcher-queue',
    async setup(model) {
      const ch = await model.createChannel();
      ch.on('error', () => undefined);
      try {
        await ch.checkQueue(opts.queue);
      } catch (err) {
        if ((err as { code?: number }).code !== 404) throw err;
        throw new Error(`the dispatcher's queue '${opts.queue}' does not exist yet: provision the broker (scripts/provision-broker.mjs)`, {
          cause: err,
        });
      } finally {
        await ch.close().catch(() => undefined);
      }
      declared = true;
      opts.logger.info('dispatcher queue found', { queue: opts.queue });
    },
    onUp: () => void conn.close(),
  });
  return {
    start: () => conn.start(),
    stop: () => conn.close(),
    get declared() {
      return declared;
    },
  };
}
