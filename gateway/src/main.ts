import http from 'node:http';
import { createPrincipalSigner, createSystemTokens } from '@firewatch/auth';
import { createLogger } from '@firewatch/logger';
import { createGatewayApp } from './app.js';
import { loadGatewayConfig } from './config.js';
import { createAuthServiceClient } from './data/auth-service.client.js';
import { createMemoryRateLimitStore } from './data/memory-rate-limit.store.js';
import { connectRedis } from './data/redis-client.js';
import { createRedisRateLimitStore } from './data/redis-rate-limit.store.js';
import { createCredentialResolver } from './domain/credential-resolver.js';
import type { RateLimitStore } from './data/rate-limit.store.js';

const config = loadGatewayConfig();
const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
const signer = createPrincipalSigner({ privateKey: config.PRINCIPAL_SIGNING_KEY });

let rateLimitStore: RateLimitStore;
if (config.REDIS_URL) {
  rateLimitStore = createRedisRateLimitStore({ redis: await connectRedis(config.REDIS_URL, logger), keyPrefix: config.REDIS_KEY_PREFIX });
} else {
  logger.warn('REDIS_URL is not set: rate limits are kept in memory and hold for this single replica only');
  rateLimitStore = createMemoryRateLimitStore();
}

const credentialResolver = createCredentialResolver({
  source: createAuthServiceClient({ baseUrl: config.AUTH_SERVICE_URL, systemTokens: createSystemTokens(config.SYSTEM_TOKEN_SECRET), logger }),
  ttlMs: config.CREDENTIAL_CACHE_TTL_MS,
});

const gateway = createGatewayApp({
  config,
  logger,
  rateLimitStore,
  rateLimitStoreKind: config.REDIS_URL ? 'redis' : 'memory',
  credentialResolver,
  signer,
});

const server = http.createServer(gateway.app);
server.listen(config.PORT, config.HOST, () => {
  logger.info('gateway listening', { host: config.HOST, port: config.PORT });
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info('shutting down', { signal, grace_ms: config.SHUTDOWN_GRACE_MS });
  // Stop accepting and let in-flight requests finish. Keep-alive sockets are closed as soon
  // as they are idle, or a client holding one open would delay the exit to the grace limit.
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweeper = setInterval(() => server.closeIdleConnections(), 100);
  const grace = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), config.SHUTDOWN_GRACE_MS).unref());
  if ((await Promise.race([drained, grace])) === 'timeout') {
    logger.warn('grace period over; closing remaining connections');
    server.closeAllConnections();
  }
  clearInterval(sweeper);
  await gateway.close();
  logger.info('stopped');
  // Let winston flush its last lines before the process ends.
  setImmediate(() => process.exit(0));
}

process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
