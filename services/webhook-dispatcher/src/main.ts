import { loadConfigOrExit } from '@firewatch/config';
import { createDb, ensureDatabase, migrate } from '@firewatch/db';
import { createLogger } from '@firewatch/logger';
import { serve } from '@firewatch/resource-kit';
import { migrations } from '@firewatch/webhooks/shared';
import { configSchema } from './config.js';
import { createDispatcher } from './dispatcher.js';
import { createHealthApp } from './http/health.app.js';

const SERVICE = 'webhook-dispatcher';
const config = loadConfigOrExit(configSchema, SERVICE);
const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });

// The dispatcher shares the webhooks database (one bounded context); either process may migrate it.
await ensureDatabase(config.DATABASE_URL);
const knex = createDb(config.DATABASE_URL, { poolMax: config.DB_POOL_MAX });
const applied = await migrate(knex, migrations);
if (applied.length) logger.info('migrations applied', { applied });

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
