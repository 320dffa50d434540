import express from 'express';
import { randomUUID } from 'node:crypto';
import { createPrincipalVerifier, PRINCIPAL_HEADER } from '@firewatch/auth';
import { listen, TEST_PRINCIPAL_KEYS } from '@firewatch/testing';
import { type FakeAuth, startFakeAuth } from './support/fake-services.js';
import { readJson, startGateway, type StartedGateway, systemTokens } from './support/gateway-harness.js';

const GOOD = 'fwhb_good-secret';
/** Sources whose own limit the fake on-call tells (payloads a minute). */
const sourceLimits = new Map<string, string>();

/** A stand-in for on-call's ingestion routes: 401 unless the secret header is GOOD; sources answer their limit header. */
async function startFakeOnCall() {
  const app = express();
  const answer = (req: express.Request, res: express.Response) => {
    if (req.headers['x-firewatch-source-secret'] !== GOOD) return res.status(401).json({ errors: [{ status: '401' }] });
    const limit = sourceLimits.get(req.params.id as string);
    if (limit) res.setHeader('x-firewatch-ingest-limit', limit);
    res.status(req.path.includes('heartbeats') ? 200 : 202).json({ method: req.method, path: req.originalUrl, headers: req.headers });
  };
  app.post('/ingest/alert_sources/:id', answer);
  app.get('/ingest/heartbeats/:id', answer);
  app.post('/ingest/heartbeats/:id', answer);
  return listen(app);
}

describe('gateway ingestion: heartbeat pings and per-source limits', () => {
  let auth: FakeAuth;
  let onCall: Awaited<ReturnType<typeof startFakeOnCall>>;
  let gateway: StartedGateway;

  beforeAll(async () => {
    auth = await startFakeAuth(systemTokens);
    onCall = await startFakeOnCall();
    gateway = await startGateway({
      authUrl: auth.url,
      env: { ON_CALL_URL: onCall.url, RATE_LIMIT_INGEST: '5', AUTH_FAILURES_PER_WINDOW: '50', RATE_LIMIT_WINDOW_SECONDS: '60' },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await onCall.close();
    await auth.close();
  });

  it("forwards a heartbeat's ping by GET or POST, the secret as bearer or in the path, never the path's secret", async () => {
    const id = randomUUID();
    const bearer = await fetch(`${gateway.url}/ingest/heartbeats/${id}`, { headers: { authorization: `Bearer ${GOOD}` } });
    expect(bearer.status).toBe(200);
    expect((await readJson(bearer)).method).toBe('GET');

    const inPath = await fetch(`${gateway.url}/ingest/heartbeats/${id}/${GOOD}?run=nightly`, { method: 'POST' });
    expect(inPath.status).toBe(200);
    const echo = await readJson(inPath);
    // on-call sees the path without the secret, the secret in its header, and a principal for that path.
    expect(echo.path).toBe(`/ingest/heartbeats/${id}?run=nightly`);
    expect(echo.headers['x-firewatch-source-secret']).toBe(GOOD);
    const verifier = createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'on-call' });
    expect(await verifier.verifyIngestion(echo.headers[PRINCIPAL_HEADER], { method: 'POST', path: `/ingest/heartbeats/${id}` })).toEqual({
      kind: 'ingestion',
      source_id: id,
    });

    expect((await fetch(`${gateway.url}/ingest/heartbeats/${id}/fwhb_wrong`)).status).toBe(401);
    expect((await fetch(`${gateway.url}/ingest/heartbeats/${id}`)).status).toBe(401);
    expect((await fetch(`${gateway.url}/ingest/heartbeats/${id}/${GOOD}`, { method: 'PUT' })).status).toBe(404);
    expect((await fetch(`${gateway.url}/ingest/heartbeats/${id}/a/b`)).status).toBe(404);
    // Alert sources take POST only, and never a secret in the path.
    expect((await fetch(`${gateway.url}/ingest/alert_sources/${id}/${GOOD}`, { method: 'POST' })).status).toBe(404);
  });

  it("counts a source against its own limit once on-call told it, and hides on-call's header from the tool", async () => {
    const id = randomUUID();
    sourceLimits.set(id, '2');
    const post = () =>
      fetch(`${gateway.url}/ingest/alert_sources/${id}`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${GOOD}` },
      });
    // The first payload is counted against the default (5); its answer teaches the gateway 2 a minute.
    const first = await post();
    expect(first.status).toBe(202);
    expect(first.headers.get('x-ratelimit-limit')).toBe('5, 5;window=60');
    expect(first.headers.get('x-firewatch-ingest-limit')).toBeNull();
    const second = await post();
    expect(second.status).toBe(202);
    expect(second.headers.get('x-ratelimit-limit')).toBe('2, 2;window=60');
    const third = await post();
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another source keeps the default.
    const other = randomUUID();
    for (let i = 0; i < 5; i++)
      expect(
        (
          await fetch(`${gateway.url}/ingest/alert_sources/${other}`, {
            method: 'POST',
            body: '{}',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${GOOD}` },
          })
        ).status,
      ).toBe(202);
  });
});
