// Jest global setup: find PostgreSQL, RabbitMQ and Redis once for the whole run and
// hand their URLs to the test workers through the environment.
import { pathToFileURL } from 'node:url';
import path from 'node:path';

export default async function globalSetup() {
  const here = path.dirname(new URL(import.meta.url).pathname);
  let mod;
  try {
    mod = await import(pathToFileURL(path.join(here, 'dist/infrastructure.js')).href);
  } catch {
    throw new Error('libs/testing is not built: run `pnpm build` (the test command does it first).');
  }
  const infra = await mod.resolveInfrastructure();
  process.env.TEST_DATABASE_URL = infra.databaseUrl;
  process.env.TEST_AMQP_URL = infra.amqpUrl;
  process.env.TEST_AMQP_MANAGEMENT_URL = infra.amqpManagementUrl;
  process.env.TEST_REDIS_URL = infra.redisUrl;
  globalThis.__FIREWATCH_INFRA__ = infra;
}
