import type { Server } from 'node:http';
import { createInternalTokens } from '@firewatch/auth';
import { loadConfigOrExit } from '@firewatch/config';
import { createDb, ensureDatabase, migrate } from '@firewatch/db';
import { createOutboxRelay, type OutboxRelay } from '@firewatch/events';
import { createLogger } from '@firewatch/logger';
import { migrations } from '../migrations/index.js';
import { createAuthApp } from './app.js';
import { configSchema } from './config.js';
import { createServices } from './create-services.js';

const SERVICE = 'auth';

async function main(): Promise<void> {
  const config = loadConfigOrExit(configSchema, SERVICE);
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });

  await ensureDatabase(config.DATABASE_URL);
  const knex = createDb(config.DATABASE_URL, { poolMax: config.DB_POOL_MAX });
  const applied = await migrate(knex, migrations);
  if (applied.length) logger.info('migrations applied', { migrations: applied });

  let relay: OutboxRelay | undefined;
  if (config.AMQP_URL) {
    relay = createOutboxRelay({ knex, amqpUrl: config.AMQP_URL, logger, name: 'auth-outbox-relay' });
    await relay.start();
  } else {
    logger.warn('AMQP_URL is not set: events stay in the outbox until a relay runs');
  }

  const services = createServices({ knex, logger });
  const app = createAuthApp({ services, tokens: createInternalTokens(config.INTERNAL_TOKEN_SECRET), logger });
  const server: Server = app.listen(config.PORT, config.HOST, () => {
    logger.info('auth listening', { host: config.HOST, port: config.PORT });
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    // Stop accepting, let in-flight requests finish, then close the relay and the pool.
    const force = setTimeout(() => {
      logger.warn('shutdown timed out; closing remaining connections');
      server.closeAllConnections();
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    server.close(async () => {
      try {
        await relay?.stop();
        await knex.destroy();
      } finally {
        clearTimeout(force);
        process.exit(0);
      }
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(
    JSON.stringify({ level: 'error', service: SERVICE, message: 'start-up failed', error: (err as Error).message }) + '\n',
  );
  process.exit(1);
});
