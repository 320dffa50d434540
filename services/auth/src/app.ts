import express, { type Express } from 'express';
import { principalMiddleware, type InternalTokens } from '@firewatch/auth';
import { errorMiddleware, notFoundMiddleware } from '@firewatch/errors';
import { jsonApiBody, mediaTypeMiddleware } from '@firewatch/jsonapi';
import { requestIdMiddleware, type Logger } from '@firewatch/logger';
import type { AuthServices } from './create-services.js';
import { apiKeysRouter } from './http/api-keys.routes.js';
import { internalRouter } from './http/credentials.routes.js';
import { healthRouter } from './http/health.routes.js';
import { usersRouter } from './http/users.routes.js';

export interface AuthAppDeps {
  services: AuthServices;
  tokens: InternalTokens;
  logger: Logger;
  /** Readiness check; defaults to the database ping. */
  ready?: () => Promise<void>;
}

/**
 * The auth service's HTTP surface. Body parsers are mounted per router, never
 * globally: the OAuth provider (node-oidc-provider) will be mounted at the root,
 * after these routers and before the 404 fallback, and must see raw bodies.
 */
export function createAuthApp({ services, tokens, logger, ready }: AuthAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Express 5's default "simple" query parser keeps `page[size]` as a flat key,
  // which is what parseListQuery expects.
  app.use(requestIdMiddleware());
  app.use(healthRouter(ready ?? services.ping));

  app.use('/internal', internalRouter({ tokens, resolveCredential: services.resolveCredential }));

  const v1 = express.Router();
  v1.use(principalMiddleware(tokens), mediaTypeMiddleware(), jsonApiBody());
  v1.use('/api_keys', apiKeysRouter(services.apiKeys));
  v1.use('/users', usersRouter(services.identity));
  app.use('/v1', v1);

  // OAuth server: mount here (`/oauth/*`, `/.well-known/*`, login pages).

  app.use(notFoundMiddleware());
  app.use(errorMiddleware(logger));
  return app;
}
