import { Redis } from 'ioredis';
import type { Router } from 'express';
import type Provider from 'oidc-provider';
import type { Logger } from '@firewatch/logger';
import type { AuthServices } from './create-services.js';
import { memoryLoginAttemptsStore, redisLoginAttemptsStore } from './data/login-attempts.store.js';
import type { LoginLimits } from './domain/login-attempts.store.js';
import { expireUnusedClients } from './data/oidc-payloads.adapter.js';
import type { ConcurrencyLimitOptions } from '@firewatch/concurrency';
import { createLoginThrottle } from './domain/oauth-login-throttle.js';
import { createOidcProvider } from './domain/oidc-provider.factory.js';
import { loadOidcKeys } from './domain/oidc-keys.js';
import { limitPasswordHashing } from './domain/password-hasher.js';
import type { TrustedProxies } from '@firewatch/config';
import { oauthRouter } from './http/oauth.router.js';
import { memoryRegistrationCounter, redisRegistrationCounter } from './http/registration-rate-limit.js';

export interface OAuthServerOptions {
  services: AuthServices;
  logger: Logger;
  issuer: string;
  /** Derives OIDC keys that are not configured (development only; config refuses it in production). */
  devKeySeed?: string;
  jwks?: string;
  cookieKeys?: string[];
  redisUrl?: string;
  redisKeyPrefix?: string;
  registrationsPerHour?: number;
  trustProxy?: TrustedProxies;
  /** Days a dynamically registered client lives unless someone authorizes it (default 7). */
  unusedClientDays?: number;
  /** Dynamically registered clients one team may have bound (default 100). */
  clientsPerTeam?: number;
  /** Login throttle numbers (defaults: LOGIN_LIMIT_DEFAULTS). */
  loginLimits?: Partial<LoginLimits>;
  /** Concurrent password hashes in this process (defaults: PASSWORD_HASHING_DEFAULTS). */
  passwordHashing?: Partial<ConcurrencyLimitOptions>;
}

export interface OAuthServer {
  provider: Provider;
  router: Router;
  close(): Promise<void>;
}

/** The provider, its HTTP routes and the Redis connection of the registration and login limits. */
export function createOAuthServer(options: OAuthServerOptions): OAuthServer {
  const { services, logger } = options;
  limitPasswordHashing(options.passwordHashing ?? {});
  const keys = loadOidcKeys({
    jwks: options.jwks,
    cookieKeys: options.cookieKeys ?? [],
    seed: options.devKeySeed,
    warn: (message) => logger.warn(message),
  });
  const provider = createOidcProvider({
    issuer: options.issuer,
    keys,
    adapter: expireUnusedClients(services.oauth.adapter, (options.unusedClientDays ?? 7) * 86_400),
    accounts: services.oauth.accounts,
    teamOfClient: services.oauth.teamOfClient,
    trustProxy: options.trustProxy !== undefined && options.trustProxy !== false,
  });
  provider.on('server_error', (_ctx, err) => logger.error('oauth server error', { error: err.message, stack: err.stack }));

  let redis: Redis | undefined;
  if (options.redisUrl) {
    redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    redis.on('error', (err) => logger.warn('redis error (registration and login limits)', { error: err.message }));
  } else {
    logger.warn('REDIS_URL is not set: the registration and login limits are kept in memory (one replica only)');
  }
  const prefix = options.redisKeyPrefix ?? 'firewatch:';
  const router = oauthRouter({
    provider,
    services,
    issuer: options.issuer,
    cookieKeys: keys.cookieKeys,
    registrationCounter: redis ? redisRegistrationCounter(redis, prefix) : memoryRegistrationCounter(),
    registrationsPerHour: options.registrationsPerHour ?? 10,
    clientsPerTeam: options.clientsPerTeam ?? 100,
    loginThrottle: createLoginThrottle({
      store: redis ? redisLoginAttemptsStore(redis, prefix) : memoryLoginAttemptsStore(),
      limits: options.loginLimits,
    }),
  });
  return {
    provider,
    router,
    async close() {
      redis?.disconnect();
    },
  };
}
