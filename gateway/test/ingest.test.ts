import express from 'express';
import { randomUUID } from 'node:crypto';
import { createPrincipalVerifier, PRINCIPAL_HEADER } from '@firewatch/auth';
import { listen, TEST_PRINCIPAL_KEYS } from '@firewatch/testing';
import { type FakeAuth, startFakeAuth } from './support/fake-services.js';
import { readJson, startGateway, type StartedGateway, systemTokens } from './support/gateway-harness.js';

const GOOD = 'fwas_good-secret';
const SLOW = 'fwas_slow-wrong-secret';

/** A stand-in for on-call's ingestion route: 401 unless the secret header is GOOD, else 202 with what it got. */
async function startFakeOnCall() {
  const app = express();
  app.use(express.text({ type: () => true }));
  app.post('/ingest/alert_sources/:id', (req, res) => {
    // A slow refusal, to hold a blocked address's few forwarding slots.
    if (req.headers['x-firewatch-source-secret'] === SLOW) {
      setTimeout(() => res.status(401).json({ errors: [{ status: '401' }] }), 300);
      return;
    }
    if (req.headers['x-firewatch-source-secret'] !== GOOD) return res.status(401).json({ errors: [{ status: '401' }] });
    res.status(202).json({ path: req.path, headers: req.headers, body: req.body });
  });
  return listen(app);
}

describe('gateway ingestion path', () => {
  let auth: FakeAuth;
  let onCall: Awaited<ReturnType<typeof startFakeOnCall>>;
  let gateway: StartedGateway;
  const post = (id: string, secret: string | undefined, init: RequestInit = {}) =>
    fetch(`${gateway.url}/ingest/alert_sources/${id}`, {
      method: 'POST',
      body: '{"summary":"disk full"}',
      ...init,
      headers: { 'content-type': 'application/json', ...(secret ? { authorization: `Bearer ${secret}` } : {}), ...init.headers },
    });

  beforeAll(async () => {
    auth = await startFakeAuth(systemTokens);
    onCall = await startFakeOnCall();
    gateway = await startGateway({
      authUrl: auth.url,
      env: { ON_CALL_URL: onCall.url, RATE_LIMIT_INGEST: '3', AUTH_FAILURES_PER_WINDOW: '4', BODY_LIMIT_BYTES: '1024' },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await onCall.close();
    await auth.close();
  });

  it('forwards without an API credential, with an ingestion principal and the secret in its own header', async () => {
    const id = randomUUID();
    const res = await post(id, GOOD);
    expect(res.status).toBe(202);
    expect(res.headers.get('x-ratelimit-limit')).toBe('3, 3;window=60');
    const echo = await readJson(res);
    expect(echo.body).toBe('{"summary":"disk full"}');
    expect(echo.headers.authorization).toBeUndefined();
    expect(echo.headers['x-firewatch-source-secret']).toBe(GOOD);
    const verifier = createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'on-call' });
    const path = `/ingest/alert_sources/${id}`;
    expect(await verifier.verifyIngestion(echo.headers[PRINCIPAL_HEADER], { method: 'POST', path })).toEqual({
      kind: 'ingestion',
      source_id: id,
    });
    // Never an API principal: a /v1 route of on-call would refuse it.
    expect(await verifier.verify(echo.headers[PRINCIPAL_HEADER], { method: 'POST', path })).toBeNull();
  });

  it('refuses what is not an ingestion request before forwarding', async () => {
    const id = randomUUID();
    const missing = await post(id, undefined);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toContain('Bearer');
    expect((await post('not-a-uuid', GOOD)).status).toBe(404);
    expect((await fetch(`${gateway.url}/ingest/alert_sources/${id}`, { headers: { authorization: `Bearer ${GOOD}` } })).status).toBe(404);
    expect((await fetch(`${gateway.url}/ingest/other`, { method: 'POST' })).status).toBe(404);
    expect((await post(id, GOOD, { body: JSON.stringify({ blob: 'x'.repeat(2048) }) })).status).toBe(413);
    // A forged principal or a secret header from the client is replaced, never passed on.
    const forged = await post(id, GOOD, { headers: { [PRINCIPAL_HEADER]: 'forged', 'x-firewatch-source-secret': 'other' } });
    const echo = await readJson(forged);
    expect(echo.headers[PRINCIPAL_HEADER]).not.toBe('forged');
    expect(echo.headers['x-firewatch-source-secret']).toBe(GOOD);
  });

  it('limits each source and secret on its own, so wrong secrets never spend the real one', async () => {
    const id = randomUUID();
    for (let i = 0; i < 3; i++) expect((await post(id, 'fwas_wrong')).status).toBe(401);
    expect((await post(id, GOOD)).status).toBe(202);
    expect((await post(id, GOOD)).status).toBe(202);
    expect((await post(id, GOOD)).status).toBe(202);
    const over = await post(id, GOOD);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBeTruthy();
    expect((await post(randomUUID(), GOOD)).status).toBe(202);
  });

  it('counts refused secrets against the client address, forwards a blocked one a few at a time, and never refuses a secret on-call accepted', async () => {
    // With the previous test's three refusals, these exhaust the budget of 4; the next refusal blocks the address.
    const id = randomUUID();
    expect((await post(id, GOOD)).status).toBe(202);
    expect((await post(id, 'fwas_wrong-2')).status).toBe(401);
    expect((await post(id, 'fwas_wrong-3')).status).toBe(401);
    await new Promise((r) => setTimeout(r, 50));
    // Blocked: at most 4 of the address's requests reach on-call at once, the others are told to retry in a second.
    const flood = await Promise.all(Array.from({ length: 10 }, () => post(randomUUID(), SLOW)));
    const statuses = flood.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(6);
    expect(flood.find((r) => r.status === 429)!.headers.get('retry-after')).toBe('1');
    // A secret this replica never saw accepted (as after a restart, or on another replica)
    // still passes from the blocked address, and the source's known one flows.
    expect((await post(randomUUID(), GOOD)).status).toBe(202);
    expect((await post(id, GOOD)).status).toBe(202);
  });
});
