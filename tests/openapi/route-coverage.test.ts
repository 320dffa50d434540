import knex, { type Knex } from 'knex';
import { createPrincipalVerifier, createSystemTokens } from '@firewatch/auth';
import { createLogger } from '@firewatch/logger';
import { listOperations } from '@firewatch/openapi';
import { createSecretBox } from '@firewatch/secret-box';
import { TEST_PRINCIPAL_KEYS } from '@firewatch/testing';
import { createRouteMatcher, ROUTES, type UpstreamName } from '../../gateway/src/domain/routes.js';
import { createAuthApp } from '../../services/auth/src/app.js';
import { createServices } from '../../services/auth/src/create-services.js';
import { createCommunicationsApp } from '../../services/communications/src/app.js';
import { createIncidentConfigApp } from '../../services/incident-config/src/app.js';
import { createOnCallApp } from '../../services/on-call/src/app.js';
import { createWebhooksApp } from '../../services/webhooks/src/app.js';
import { mountedRoutes } from './mounted-routes.js';
import { openApiDocument } from './openapi-document.js';

// The apps are only built, never called: a pool that would connect on first use suffices.
let db: Knex;
const logger = createLogger({ service: 'route-coverage-test', level: 'silent' });
const principals = (audience: string) => createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience });

beforeAll(() => {
  db = knex({ client: 'pg', connection: 'postgres://unused@127.0.0.1:1/unused', pool: { min: 0 } });
});
afterAll(() => db.destroy());

function apps(): Record<string, { upstream: UpstreamName; app: import('express').Express }> {
  return {
    auth: {
      upstream: 'auth',
      app: createAuthApp({
        services: createServices({ knex: db, logger }),
        knex: db,
        principals: principals('auth'),
        systemTokens: createSystemTokens('route-coverage-test-secret-0123456789'),
        logger,
      }),
    },
    'incident-config': {
      upstream: 'incident-config',
      app: createIncidentConfigApp({
        knex: db,
        logger,
        principals: principals('incident-config'),
        secretBox: createSecretBox({ keys: [], devKeySeed: 'route-coverage-test' }),
      }),
    },
    communications: {
      upstream: 'communications',
      app: createCommunicationsApp({ knex: db, logger, principals: principals('communications') }),
    },
    'on-call': {
      upstream: 'on-call',
      app: createOnCallApp({ knex: db, logger, principals: principals('on-call') }),
    },
    webhooks: {
      upstream: 'webhooks',
      app: createWebhooksApp({
        knex: db,
        logger,
        principals: principals('webhooks'),
        allowHttp: false,
        secretBox: createSecretBox({ keys: [], devKeySeed: 'route-coverage-test' }),
      }),
    },
  };
}

// Parameter names may differ between express (`:endpointId`) and the document (`{endpoint_id}`).
const key = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;

describe('the public OpenAPI document against the mounted routes', () => {
  const match = createRouteMatcher();
  const documented = new Set(listOperations(openApiDocument()).map((o) => key(o.method, o.path)));

  it.each(Object.keys(apps()))('documents every public route the %s service mounts', (name) => {
    const { upstream, app } = apps()[name];
    const mounted = mountedRoutes(app)
      .filter((r) => match(r.path) === upstream)
      .map((r) => key(r.method, r.path));
    expect(mounted.length).toBeGreaterThan(0);
    expect(mounted.filter((r) => !documented.has(r))).toEqual([]);
  });

  // The gateway's route table is kept by hand; a collection a service mounts but the table
  // sends elsewhere (or nowhere) would be unreachable, and the check above would skip it.
  it.each(Object.keys(apps()))('routes every /v1 path the %s service mounts to that service', (name) => {
    const { upstream, app } = apps()[name];
    const strays = mountedRoutes(app)
      .filter((r) => r.path.startsWith('/v1/') && match(r.path.replace(/\{[^}]+\}/g, 'x')) !== upstream)
      .map((r) => key(r.method, r.path));
    expect(strays).toEqual([]);
  });

  // And the other way: a collection the table sends to a service that serves nothing there
  // would answer that service's 404 for a family the gateway claims exists.
  it('routes no /v1 collection to a service that mounts nothing under it', () => {
    const mounted = Object.values(apps()).flatMap(({ upstream, app }) => mountedRoutes(app).map((r) => ({ upstream, path: r.path })));
    // A route is served when its service mounts a path that the route alone would send there
    // (`/v1/users/{user_id}/phone_numbers`: on-call's `/v1/users/{}/phone_numbers`).
    const unserved = ROUTES.filter((route) => {
      const match = createRouteMatcher([route]);
      return !mounted.some((m) => m.upstream === route.upstream && match(m.path) === route.upstream);
    });
    expect(unserved.map((r) => r.prefix)).toEqual([]);
  });

  it('documents no route that no service mounts', () => {
    const mounted = new Set(Object.values(apps()).flatMap(({ app }) => mountedRoutes(app).map((r) => key(r.method, r.path))));
    expect([...documented].filter((op) => !mounted.has(op))).toEqual([]);
  });

  it('finds routes in routers mounted under a path, as auth mounts /v1/api_keys', () => {
    const auth = mountedRoutes(apps().auth.app).map((r) => key(r.method, r.path));
    expect(auth).toEqual(expect.arrayContaining(['POST /v1/api_keys/{}/rotate', 'GET /v1/users/me', 'PATCH /v1/oauth_applications/{}']));
  });
});
