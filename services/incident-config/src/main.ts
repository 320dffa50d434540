import { createPrincipalVerifier } from '@firewatch/auth';
import { loadConfigOrExit } from '@firewatch/config';
import { openDatabase } from '@firewatch/db';
import { createOutboxRelay } from '@firewatch/events';
import { createLogger } from '@firewatch/logger';
import { serve } from '@firewatch/resource-kit';
import { migrations } from '../migrations/index.js';
import { createIncidentConfigApp } from './app.js';
import { configSchema } from './config.js';

const SERVICE = 'incident-config';
const config = loadConfigOrExit(configSchema, SERVICE);
const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });

const knex = await openDatabase({ url: config.DATABASE_URL, migrations, poolMax: config.DB_POOL_MAX, logger });

const relay = createOutboxRelay({ knex, amqpUrl: config.AMQP_URL, logger });
await relay.start();

const app = createIncidentConfigApp({
  knex,
  logger,
  principals: createPrincipalVerifier({ publicKeys: config.PRINCIPAL_PUBLIC_KEYS, audience: SERVICE }),
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
