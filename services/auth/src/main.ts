import { createInternalTokens } from '@firewatch/auth';
import { loadConfigOrExit } from '@firewatch/config';
import { createDb, ensureDatabase, migrate } from '@firewatch/db';
import { createOutboxRelay } from '@firewatch/events';
import { createLogger } from '@firewatch/logger';
import { serve } from '@firewatch/resource-kit';
import { migrations } from '../migrations/index.js';
import { createAuthApp } from './app.js';
import { configSchema } from './config.js';
import { createServices } from './create-services.js';

const SERVICE = 'auth';
const config = loadConfigOrExit(configSchema, SERVICE);
const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });

await ensureDatabase(config.DATABASE_URL);
const knex = createDb(config.DATABASE_URL, { poolMax: config.DB_POOL_MAX });
const applied = await migrate(knex, migrations);
if (applied.length) logger.info('migrations applied', { applied });

// Events written in a change's transaction leave through the outbox relay, which keeps
// retrying in the background while RabbitMQ is away.
const relay = createOutboxRelay({ knex, amqpUrl: config.AMQP_URL, logger, name: 'auth-outbox-relay' });
await relay.start();

const services = createServices({ knex, logger });
const app = createAuthApp({ services, tokens: createInternalTokens(config.INTERNAL_TOKEN_SECRET), logger });

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
