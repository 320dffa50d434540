import { loadConfigOrExit } from '@firewatch/config';
import { openDatabase } from '@firewatch/db';
import { createLogger } from '@firewatch/logger';
import { serve } from '@firewatch/resource-kit';
import { createSecretBox, migrations, sealPlainHeaderValues } from '@firewatch/webhooks/shared';
import { configSchema } from './config.js';
import { createDispatcher } from './dispatcher.js';
import { createHealthApp } from './http/health.app.js';

const SERVICE = 'webhook-dispatcher';
const config = loadConfigOrExit(configSchema, SERVICE);
const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });

// The dispatcher shares the webhooks database (one bounded context); either process may migrate it.
const knex = await openDatabase({ url: config.DATABASE_URL, migrations, poolMax: config.DB_POOL_MAX, logger });
// Either process may be the first to start on a database with plain header values.
const sealed = await sealPlainHeaderValues(knex, createSecretBox({ keys: config.WEBHOOK_SECRET_KEYS, devKeySeed: config.DEV_KEY_SEED }));
if (sealed) logger.info('sealed plain custom header values', { endpoints: sealed });

const dispatcher = createDispatcher(config, { knex, logger });
await dispatcher.start();

const app = createHealthApp({
  database: () => knex.raw('select 1'),
  broker: async () => { if (!dispatcher.consuming) throw new Error('not consuming'); },
});

await serve(app, {
  port: config.PORT,
  host: config.HOST,
  logger,
  graceMs: config.SHUTDOWN_GRACE_MS,
  onShutdown: async () => {
    await dispatcher.stop();
    await knex.destroy();
  },
});
