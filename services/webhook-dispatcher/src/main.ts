import { openDatabase } from '@firewatch/db';
import { runService } from '@firewatch/http';
import { createMetrics, deliveryRecorder, observeKnexPool } from '@firewatch/metrics';
import { createSecretBox } from '@firewatch/secret-box';
import { createPlainHeaderValuesStore, migrations, sealPlainHeaderValues } from '@firewatch/webhooks/shared';
import { configSchema } from './config.js';
import { createDispatcher } from './dispatcher.js';
import { createHealthApp } from './http/health.app.js';

await runService({
  name: 'webhook-dispatcher',
  schema: configSchema,
  async start({ config, logger }) {
    // The dispatcher shares the webhooks database (one bounded context); either process may migrate it.
    const knex = await openDatabase({ url: config.DATABASE_URL, migrations, poolMax: config.DB_POOL_MAX, logger });
    // Either process may be the first to start on a database with plain header values.
    const sealed = await sealPlainHeaderValues(
      createPlainHeaderValuesStore(knex),
      createSecretBox({ keys: config.WEBHOOK_SECRET_KEYS, devKeySeed: config.DEV_KEY_SEED }),
    );
    if (sealed) logger.info('sealed plain custom header values', { endpoints: sealed });

    const metrics = createMetrics({ service: 'webhook-dispatcher' });
    observeKnexPool(metrics, knex);
    const dispatcher = createDispatcher(config, { knex, logger, deliveries: deliveryRecorder(metrics) });
    await dispatcher.start();
    const app = createHealthApp(
      {
        database: () => knex.raw('select 1'),
        broker: async () => {
          if (!dispatcher.consuming) throw new Error('not consuming');
        },
      },
      metrics,
    );
    return {
      app,
      async stop() {
        await dispatcher.stop();
        await knex.destroy();
      },
    };
  },
});
