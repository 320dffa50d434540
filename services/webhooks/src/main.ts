import { runKitService } from '@firewatch/kit-service';
import { migrations } from '../migrations/index.js';
import { createWebhooksApp } from './app.js';
import { configSchema } from './config.js';
import { createPlainHeaderValuesStore } from './data/plain-header-values.store.js';
import { sealPlainHeaderValues } from './domain/endpoints/custom-header-values.js';
import { createSecretBox, resealInBackground, sealedColumn } from '@firewatch/secret-box';
import { ensureDispatcherQueue } from './queue/dispatcher-queue.js';

await runKitService({
  name: 'webhooks',
  schema: configSchema,
  migrations,
  async start({ config, logger, knex }) {
    const secretBox = createSecretBox({ keys: config.WEBHOOK_SECRET_KEYS, devKeySeed: config.DEV_KEY_SEED });
    const sealed = await sealPlainHeaderValues(createPlainHeaderValuesStore(knex), secretBox);
    if (sealed) logger.info('sealed plain custom header values', { endpoints: sealed });
    // The second half of a key rotation: signing secrets sealed with an older key get the first one.
    const resealing = resealInBackground(secretBox, sealedColumn(knex, 'webhooks_endpoints', 'secret_ciphertext'), logger, {
      what: 'webhook endpoint secrets',
      setting: 'WEBHOOK_SECRET_KEYS',
    });

    // Provisioning declares the dispatcher's queue; readiness tells whether it exists yet.
    // The events database's queues are declared with the database itself (provisionPgEvents).
    const queue = config.AMQP_URL
      ? ensureDispatcherQueue({ amqpUrl: config.AMQP_URL, logger, queue: config.WEBHOOK_QUEUE })
      : { start: async () => undefined, stop: async () => undefined, declared: true };
    await queue.start();

    return {
      app: (shell) =>
        createWebhooksApp({
          ...shell,
          secretBox,
          allowHttp: config.WEBHOOK_ALLOW_HTTP,
          maxEndpointsPerTeam: config.WEBHOOK_MAX_ENDPOINTS_PER_TEAM,
        }),
      readiness: {
        dispatcher_queue: async () => {
          if (!queue.declared) throw new Error('dispatcher queue not declared yet');
        },
      },
      async stop() {
        await resealing;
        await queue.stop();
      },
    };
  },
});
