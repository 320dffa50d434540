import { createInternalTokens } from '@firewatch/auth';
import { loadConfigOrExit } from '@firewatch/config';
import { createDb, ensureDatabase, migrate } from '@firewatch/db';
import { createOutboxRelay } from '@firewatch/events';
import { createLogger } from '@firewatch/logger';
import { serve } from '@firewatch/resource-kit';
import { migrations } from '../migrations/index.js';
import { createIncidentConfigApp } from './app.js';
import { configSchema } from './config.js';

const SERVICE = 'incident-config';
const config = loadConfigOrExit(configSchema, SERVICE);
const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });

await ensureDatabase(config.DATABASE_URL);
const knex = createDb(config.DATABASE_URL, { poolMax: config.DB_POOL_MAX });
const applied = await migrate(knex, migrations);
if (applied.length) logger.info('migrations applied', { applied });

const relay = createOutboxRelay({ knex, amqpUrl: config.AMQP_URL, logger });
await relay.start();

const app = createIncidentConfigApp({
  knex,
  logger,
  tokens: createInternalTokens(config.INTERNAL_TOKEN_SECRET),
  bodyLimit: config.BODY_LIMIT,
  readiness: {
    database: () => knex.raw('select 1'),
    broker: async () => { if (!relay.stats.connected) throw new Error('broker not connected'); },
  },
});

await serve(app, {
  port: config.PORT,
  host: config.HOST,
  logger,
  graceMs: config.SHUTDOWN_GRACE_MS,
  onShutdown: async () => {
    await relay.stop();
    await knex.destroy();
  },
});
