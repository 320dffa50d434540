import { Redis } from 'ioredis';
import type { Router } from 'express';
import type Provider from 'oidc-provider';
import type { Logger } from '@firewatch/logger';
import type { AuthServices } from './create-services.js';
import { createOidcProvider } from './domain/oidc-provider.factory.js';
import { loadOidcKeys } from './domain/oidc-keys.js';
import { oauthRouter } from './http/oauth.router.js';
import { memoryRegistrationCounter, redisRegistrationCounter } from './http/registration-rate-limit.js';

export interface OAuthServerOptions {
  services: AuthServices;
  logger: Logger;
  issuer: string;
  internalSecret: string;
  jwks?: string;
  cookieKeys?: string[];
  redisUrl?: string;
  redisKeyPrefix?: string;
  registrationsPerHour?: number;
  trustProxy?: boolean;
}

export interface OAuthServer {
  provider: Provider;
  router: Router;
  close(): Promise<void>;
}

/** The provider, its HTTP routes and the registration limiter's Redis connection. */
export function createOAuthServer(options: OAuthServerOptions): OAuthServer {
  const { services, logger } = options;
  const keys = loadOidcKeys({
    jwks: options.jwks,
    cookieKeys: options.cookieKeys ?? [],
    secret: options.internalSecret,
    warn: (message) => logger.warn(message),
  });
  const provider = createOidcProvider({
    issuer: options.issuer,
    keys,
    adapter: services.oauth.adapter,
    accounts: services.oauth.accounts,
    teamOfClient: services.oauth.teamOfClient,
    trustProxy: options.trustProxy,
  });
  provider.on('server_error', (_ctx, err) => logger.error('oauth server error', { error: err.message, stack: err.stack }));

  let redis: Redis | undefined;
  if (options.redisUrl) {
    redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    redis.on('error', (err) => logger.warn('redis error (registration rate limit)', { error: err.message }));
  } else {
    logger.warn('REDIS_URL is not set: the registration rate limit is kept in memory (one replica only)');
  }
  const router = oauthRouter({
    provider,
    services,
    issuer: options.issuer,
    cookieKeys: keys.cookieKeys,
    registrationCounter: redis ? redisRegistrationCounter(redis, options.redisKeyPrefix ?? 'firewatch:') : memoryRegistrationCounter(),
    registrationsPerHour: options.registrationsPerHour ?? 10,
  });
  return {
    provider,
    router,
    async close() {
      redis?.disconnect();
    },
  };
}
