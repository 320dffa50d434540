import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createPrincipalSigner, createSystemTokens, type SystemTokens } from '@firewatch/auth';
import { createLogger, type Logger } from '@firewatch/logger';
import { createMetrics, type Metrics } from '@firewatch/metrics';
import { listen, TEST_PRINCIPAL_KEYS, type Listening } from '@firewatch/testing';
import { createGatewayApp } from '../../src/app.js';
import { type GatewayConfig, parseGatewayConfig } from '../../src/config.js';
import { createAuthServiceClient } from '../../src/data/auth-service.client.js';
import { createMemoryRateLimitStore } from '../../src/data/memory-rate-limit.store.js';
import { connectRedis } from '../../src/data/redis-client.js';
import { createRedisRateLimitStore } from '../../src/data/redis-rate-limit.store.js';
import { createCredentialResolver } from '../../src/domain/credential-resolver.js';

export const SYSTEM_SECRET = 'gateway-test-secret-0123456789abcdef';
/** The gateway's and the (fake) auth service's shared system-token secret. */
export const systemTokens: SystemTokens = createSystemTokens(SYSTEM_SECRET);
export const silent = createLogger({ service: 'gateway-test', level: 'silent' });

export interface StartedGateway extends Listening {
  config: GatewayConfig;
  /** The gateway's own registry, as main.ts gives it one (without Node's process metrics). */
  metrics: Metrics;
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
    PRINCIPAL_SIGNING_KEY: JSON.stringify(TEST_PRINCIPAL_KEYS.privateKey),
    SYSTEM_TOKEN_SECRET: SYSTEM_SECRET,
    AUTH_SERVICE_URL: authUrl,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const rateLimitStore = redis
    ? createRedisRateLimitStore({ redis: await connectRedis(redis.url, silent, { connectTimeoutMs: 300 }), keyPrefix: redis.keyPrefix })
    : createMemoryRateLimitStore();
  // A test may configure another secret, to play a gateway the auth service does not trust.
  const ownSystemTokens = config.SYSTEM_TOKEN_SECRET === SYSTEM_SECRET ? systemTokens : createSystemTokens(config.SYSTEM_TOKEN_SECRET);
  const credentialResolver = createCredentialResolver({
    // Longer than the process's default (5 s): on a loaded CI machine a case once got a 503
    // where it counted a 401 (auth-failure-guard.test.ts), which a fake auth service answering
    // after 2 s gives. No case waits on a silent auth service: a stopped one refuses at once.
    source: createAuthServiceClient({ baseUrl: config.AUTH_SERVICE_URL, systemTokens: ownSystemTokens, logger, timeoutMs: 10_000 }),
    ttlMs: config.CREDENTIAL_CACHE_TTL_MS,
  });
  const metrics = createMetrics({ service: 'gateway', defaultMetrics: false });
  const gateway = createGatewayApp({
    metrics,
    config,
    logger,
    rateLimitStore,
    rateLimitStoreKind: redis ? 'redis' : 'memory',
    credentialResolver,
    signer: createPrincipalSigner({ privateKey: config.PRINCIPAL_SIGNING_KEY }),
  });
  const server = await listen(gateway.app);
  return {
    ...server,
    config,
    metrics,
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
