import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createInternalTokens, type InternalTokens } from '@firewatch/auth';
import { createLogger, type Logger } from '@firewatch/logger';
import { listen, type Listening } from '@firewatch/testing';
import { createGatewayApp } from '../../src/app.js';
import { type GatewayConfig, parseGatewayConfig } from '../../src/config.js';
import { createAuthServiceClient } from '../../src/data/auth-service.client.js';
import { createMemoryRateLimitStore } from '../../src/data/memory-rate-limit.store.js';
import { connectRedis } from '../../src/data/redis-client.js';
import { createRedisRateLimitStore } from '../../src/data/redis-rate-limit.store.js';
import { createCredentialResolver } from '../../src/domain/credential-resolver.js';

export const SECRET = 'gateway-test-secret-0123456789abcdef';
export const tokens: InternalTokens = createInternalTokens(SECRET);
export const silent = createLogger({ service: 'gateway-test', level: 'silent' });

export interface StartedGateway extends Listening {
  config: GatewayConfig;
}

export interface GatewayOptions {
  authUrl: string;
  env?: Record<string, string | undefined>;
  /** A Redis URL and key prefix for the shared store; the in-memory store otherwise. */
  redis?: { url: string; keyPrefix: string };
  logger?: Logger;
}

/** A gateway app with real dependencies, served on a free port. */
export async function startGateway({ authUrl, env = {}, redis, logger = silent }: GatewayOptions): Promise<StartedGateway> {
  const config = parseGatewayConfig({
    INTERNAL_TOKEN_SECRET: SECRET,
    AUTH_SERVICE_URL: authUrl,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const rateLimitStore = redis
    ? createRedisRateLimitStore({ redis: await connectRedis(redis.url, silent, { connectTimeoutMs: 300 }), keyPrefix: redis.keyPrefix })
    : createMemoryRateLimitStore();
  // A test may configure another secret, to play a gateway the services do not trust.
  const ownTokens = config.INTERNAL_TOKEN_SECRET === SECRET ? tokens : createInternalTokens(config.INTERNAL_TOKEN_SECRET);
  const credentialResolver = createCredentialResolver({
    source: createAuthServiceClient({ baseUrl: config.AUTH_SERVICE_URL, tokens: ownTokens, logger, timeoutMs: 2000 }),
    ttlMs: config.CREDENTIAL_CACHE_TTL_MS,
  });
  const gateway = createGatewayApp({
    config, logger, rateLimitStore, rateLimitStoreKind: redis ? 'redis' : 'memory', credentialResolver, tokens: ownTokens,
  });
  const server = await listen(gateway.app);
  return {
    ...server,
    config,
    close: async () => {
      await server.close();
      await gateway.close();
    },
  };
}

/** A key prefix no other suite or run uses. */
export function uniquePrefix(suite: string): string {
  return `test:gateway:${suite}:${randomUUID()}:`;
}

/** Deletes a suite's rate-limit keys. */
export async function dropKeys(redis: Redis, prefix: string): Promise<void> {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
}

export function bearer(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...extra };
}

/** A response body as loosely typed JSON; tests assert its shape. */
export const readJson = (res: Response): Promise<any> => res.json();
