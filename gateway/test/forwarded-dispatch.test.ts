import { createPrincipalSigner } from '@firewatch/auth';
import { listen, type Listening, TEST_PRINCIPAL_KEYS } from '@firewatch/testing';
import { createGatewayApp, type GatewayApp } from '../src/app.js';
import { parseGatewayConfig } from '../src/config.js';
import { createMemoryRateLimitStore } from '../src/data/memory-rate-limit.store.js';
import { createCredentialResolver } from '../src/domain/credential-resolver.js';
import type { RateLimitStore } from '../src/domain/rate-limit.store.js';
import { readJson, silent, SYSTEM_SECRET } from './support/gateway-harness.js';

const SOURCE = '11111111-2222-4333-8444-555555555555';
const LINK = 'Kp3xV9_qW-2mZ7bN4cR8sA';

/**
 * The forwarded paths are dispatched before express (app.ts), and must end as express's
 * router ended them: a handler passing on a falsy value or 'route' (here, a rate-limit store
 * rejecting with one) was passed on to the 404, not answered as an error.
 */
describe('gateway forwarded dispatch', () => {
  let rejection: unknown;
  let gateway: GatewayApp;
  let server: Listening;

  beforeAll(async () => {
    const config = parseGatewayConfig({
      PRINCIPAL_SIGNING_KEY: JSON.stringify(TEST_PRINCIPAL_KEYS.privateKey),
      SYSTEM_TOKEN_SECRET: SYSTEM_SECRET,
      AUTH_SERVICE_URL: 'http://127.0.0.1:1',
      ON_CALL_URL: 'http://127.0.0.1:1',
      LOG_LEVEL: 'silent',
    });
    const memory = createMemoryRateLimitStore();
    const rateLimitStore: RateLimitStore = { ...memory, hitAll: () => Promise.reject(rejection) };
    gateway = createGatewayApp({
      config,
      logger: silent,
      rateLimitStore,
      rateLimitStoreKind: 'memory',
      credentialResolver: createCredentialResolver({ source: { resolve: async () => null, ping: async () => undefined }, ttlMs: 0 }),
      signer: createPrincipalSigner({ privateKey: config.PRINCIPAL_SIGNING_KEY }),
    });
    server = await listen(gateway.app);
  });
  afterAll(async () => {
    await server.close();
    await gateway.close();
  });

  it.each([null, false, 0, '', 'route', undefined])('answers 404 when a handler passes on %p, as express did', async (value) => {
    rejection = value;
    for (const res of [
      await fetch(`${server.url}/alert-actions/${LINK}`),
      await fetch(`${server.url}/ingest/alert_sources/${SOURCE}`, {
        method: 'POST',
        headers: { authorization: 'Bearer s3cret' },
        body: '{}',
      }),
    ]) {
      expect(res.status).toBe(404);
      expect((await readJson(res)).errors[0].code).toBe('route_not_found');
    }
  });
});
