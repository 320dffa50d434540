import { Router, type Express } from 'express';
import type { Knex } from 'knex';
import type { PrincipalVerifier, SystemTokens } from '@firewatch/auth';
import type { Logger } from '@firewatch/logger';
import type { Metrics } from '@firewatch/metrics';
import { writeEvent } from '@firewatch/events';
import { createServiceApp } from '@firewatch/http';
import { createResourceModules, mountResources } from '@firewatch/resource-kit';
import type { AuthServices } from './create-services.js';
import { apiKeysRouter } from './http/api-keys.routes.js';
import { authOpenApiDocument } from './http/auth.openapi.js';
import { internalRouter } from './http/credentials.routes.js';
import { oauthApplicationsRouter } from './http/oauth-applications.routes.js';
import { usersRouter } from './http/users.routes.js';
import { createUserIncludes } from './domain/user-includes.js';
import type { TrustedProxies } from '@firewatch/config';

export interface AuthAppDeps {
  services: AuthServices;
  /** The auth database, which keeps the Idempotency-Key answers of `/v1` writes. */
  knex: Knex;
  /** Verifies the gateway-signed principal on `/v1`. */
  principals: PrincipalVerifier;
  /** Verifies the gateway's calls to `/internal`. */
  systemTokens: SystemTokens;
  logger: Logger;
  /** Readiness checks; defaults to the database. */
  readiness?: Record<string, () => Promise<unknown>>;
  /** The OAuth server's routes (createOAuthServer); mounted last, at the root. */
  oauth?: Router;
  /** Proxies whose X-Forwarded-For is believed (TRUST_PROXY); default none. */
  trustProxy?: TrustedProxies;
  /** The process's metrics, served at `/metrics`. */
  metrics?: Metrics;
}

/**
 * The auth service's HTTP surface on the shared service shell (request ids, access log,
 * health, the gateway principal and JSON:API media types on `/v1`, one error mapper).
 * `/internal` has its own guard and JSON parser. No body parser runs outside those two
 * prefixes, so the OAuth provider (node-oidc-provider) can be mounted as the last router
 * here, at the root, and still see raw bodies.
 */
export function createAuthApp(deps: AuthAppDeps): Express {
  const { services, knex, principals, systemTokens, logger, readiness, oauth, trustProxy } = deps;
  const v1 = Router();
  v1.use('/api_keys', apiKeysRouter(services.apiKeys));
  // The kit's resources (groups at /v1/teams) carry their full paths; users include groups as they answer them.
  const resources = createResourceModules(services.resources.registry, { knex, writeEvent, deps: services.resources.deps });
  const groups = resources.find((m) => m.definition.type === 'groups')?.service;
  if (!groups) throw new Error("auth's registry declares no groups");
  const userIncludes = createUserIncludes({ memberships: services.resources.deps.groupMembers, groups });
  v1.use('/users', usersRouter(services.identity, services.users, userIncludes));
  v1.use('/oauth_applications', oauthApplicationsRouter(services.oauth.applications));

  const root = Router();
  root.use(mountResources(resources));
  root.use('/v1', v1);
  root.use('/internal', internalRouter({ systemTokens, resolveCredential: services.resolveCredential }));
  // The OAuth server (`/oauth/*`, `/.well-known/*`, `/interaction/*`): last, at the root.
  if (oauth) root.use(oauth);

  const app = createServiceApp({
    logger,
    principals,
    routers: [root],
    // The database only: a broker outage delays events (the outbox keeps them) but must
    // not take credential resolution, and with it the whole API, out of service.
    readiness: readiness ?? { database: services.ping },
    openapi: authOpenApiDocument(),
    idempotency: { knex },
    metrics: deps.metrics,
  });
  // `req.ip` is then the right-most X-Forwarded-For address that no trusted proxy added.
  app.set('trust proxy', trustProxy ?? false);
  return app;
}
