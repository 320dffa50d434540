import { createPrincipalVerifier } from '@firewatch/auth';
import { openDatabase } from '@firewatch/db';
import { createOutboxRelay } from '@firewatch/events';
import { runService } from '@firewatch/http';
import { migrations } from '../migrations/index.js';
import { createWebhooksApp } from './app.js';
import { configSchema } from './config.js';
import { createPlainHeaderValuesStore } from './data/plain-header-values.store.js';
import { sealPlainHeaderValues } from './domain/custom-header-values.js';
import { createSecretBox, resealInBackground, sealedColumn } from '@firewatch/secret-box';
import { ensureDispatcherQueue } from './queue/dispatcher-queue.js';

await runService({
  name: 'webhooks',
  schema: configSchema,
  async start({ config, logger }) {
    const knex = await openDatabase({ url: config.DATABASE_URL, migrations, poolMax: config.DB_POOL_MAX, logger });
    const secretBox = createSecretBox({ keys: config.WEBHOOK_SECRET_KEYS, devKeySeed: config.DEV_KEY_SEED });
    const sealed = await sealPlainHeaderValues(createPlainHeaderValuesStore(knex), secretBox);
    if (sealed) logger.info('sealed plain custom header values', { endpoints: sealed });
    // The second half of a key rotation: signing secrets sealed with an older key get the first one.
    const resealing = resealInBackground(secretBox, sealedColumn(knex, 'webhooks_endpoints', 'secret_ciphertext'), logger, {
      what: 'webhook endpoint secrets', setting: 'WEBHOOK_SECRET_KEYS',
    });

    const queue = ensureDispatcherQueue({ amqpUrl: config.AMQP_URL, logger, queue: config.WEBHOOK_QUEUE });
    await queue.start();
    const relay = createOutboxRelay({ knex, amqpUrl: config.AMQP_URL, logger });
    await relay.start();

    const app = createWebhooksApp({
      knex,
      logger,
      principals: createPrincipalVerifier({ publicKeys: config.PRINCIPAL_PUBLIC_KEYS, audience: 'webhooks' }),
      secretBox,
      allowHttp: config.WEBHOOK_ALLOW_HTTP,
      maxEndpointsPerTeam: config.WEBHOOK_MAX_ENDPOINTS_PER_TEAM,
      bodyLimit: config.BODY_LIMIT,
      readiness: {
        database: () => knex.raw('select 1'),
        broker: async () => { if (!relay.stats.connected) throw new Error('broker not connected'); },
        dispatcher_queue: async () => { if (!queue.declared) throw new Error('dispatcher queue not declared yet'); },
      },
    });
    return {
      app,
      async stop() {
        await resealing;
        await queue.stop();
        await relay.stop();
        await knex.destroy();
      },
    };
  },
});
