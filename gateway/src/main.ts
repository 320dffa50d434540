import { createPrincipalSigner, createSystemTokens } from '@firewatch/auth';
import { runService } from '@firewatch/http';
import { createMetrics } from '@firewatch/metrics';
import { createGatewayApp } from './app.js';
import { gatewayConfigSchema } from './config.js';
import { createAuthServiceClient } from './data/auth-service.client.js';
import { createMemoryRateLimitStore } from './data/memory-rate-limit.store.js';
import { connectRedis } from './data/redis-client.js';
import { createRedisRateLimitStore } from './data/redis-rate-limit.store.js';
import { createCredentialResolver } from './domain/credential-resolver.js';
import type { RateLimitStore } from './domain/rate-limit.store.js';

await runService({
  name: 'gateway',
  schema: gatewayConfigSchema,
  async start({ config, logger }) {
    let rateLimitStore: RateLimitStore;
    if (config.REDIS_URL) {
      rateLimitStore = createRedisRateLimitStore({
        redis: await connectRedis(config.REDIS_URL, logger),
        keyPrefix: config.REDIS_KEY_PREFIX,
      });
    } else {
      logger.warn('REDIS_URL is not set: rate limits are kept in memory and hold for this single replica only');
      rateLimitStore = createMemoryRateLimitStore();
    }
    const credentialResolver = createCredentialResolver({
      source: createAuthServiceClient({
        baseUrl: config.AUTH_SERVICE_URL,
        systemTokens: createSystemTokens(config.SYSTEM_TOKEN_SECRET),
        logger,
      }),
      ttlMs: config.CREDENTIAL_CACHE_TTL_MS,
    });
    const gateway = createGatewayApp({
      config,
      logger,
      rateLimitStore,
      rateLimitStoreKind: config.REDIS_URL ? 'redis' : 'memory',
      credentialResolver,
      signer: createPrincipalSigner({ privateKey: config.PRINCIPAL_SIGNING_KEY }),
      metrics: createMetrics({ service: 'gateway' }),
    });
    return { app: gateway.app, stop: () => gateway.close() };
  },
});
