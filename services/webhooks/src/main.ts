import { createPrincipalVerifier } from '@firewatch/auth';
import { loadConfigOrExit } from '@firewatch/config';
import { openDatabase } from '@firewatch/db';
import { createOutboxRelay } from '@firewatch/events';
import { createLogger } from '@firewatch/logger';
import { serve } from '@firewatch/resource-kit';
import { migrations } from '../migrations/index.js';
import { createWebhooksApp } from './app.js';
import { configSchema } from './config.js';
import { sealPlainHeaderValues } from './data/plain-header-values.sealer.js';
import { createSecretBox } from './domain/secret-box.js';
import { ensureDispatcherQueue } from './queue/dispatcher-queue.js';

const SERVICE = 'webhooks';
const config = loadConfigOrExit(configSchema, SERVICE);
const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });

const knex = await openDatabase({ url: config.DATABASE_URL, migrations, poolMax: config.DB_POOL_MAX, logger });
const secretBox = createSecretBox({ keys: config.WEBHOOK_SECRET_KEYS, devKeySeed: config.DEV_KEY_SEED });
const sealed = await sealPlainHeaderValues(knex, secretBox);
if (sealed) logger.info('sealed plain custom header values', { endpoints: sealed });

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

await serve(app, {
  port: config.PORT,
  host: config.HOST,
  logger,
  graceMs: config.SHUTDOWN_GRACE_MS,
  onShutdown: async () => {
    await queue.stop();
    await relay.stop();
    await knex.destroy();
  },
});
