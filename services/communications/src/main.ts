import { createPrincipalVerifier } from '@firewatch/auth';
import { openDatabase } from '@firewatch/db';
import { createOutboxRelay } from '@firewatch/events';
import { runService } from '@firewatch/http';
import { migrations } from '../migrations/index.js';
import { createCommunicationsApp } from './app.js';
import { createLiquidPool } from './domain/liquid/render-pool.js';
import { configSchema } from './config.js';

await runService({
  name: 'communications',
  schema: configSchema,
  async start({ config, logger }) {
    const knex = await openDatabase({ url: config.DATABASE_URL, migrations, poolMax: config.DB_POOL_MAX, logger });
    const relay = createOutboxRelay({ knex, amqpUrl: config.AMQP_URL, logger });
    await relay.start();
    const liquid = createLiquidPool();
    const app = createCommunicationsApp({
      knex,
      liquid,
      logger,
      principals: createPrincipalVerifier({ publicKeys: config.PRINCIPAL_PUBLIC_KEYS, audience: 'communications' }),
      bodyLimit: config.BODY_LIMIT,
      readiness: {
        database: () => knex.raw('select 1'),
        broker: async () => { if (!relay.stats.connected) throw new Error('broker not connected'); },
      },
    });
    return {
      app,
      async stop() {
        await relay.stop();
        await liquid.close();
        await knex.destroy();
      },
    };
  },
});
