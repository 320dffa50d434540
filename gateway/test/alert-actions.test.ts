import { PassThrough } from 'node:stream';
import express from 'express';
import { createLogger } from '@firewatch/logger';
import { ACTION_TOKEN_HEADER, PRINCIPAL_HEADER } from '@firewatch/auth';
import { listen } from '@firewatch/testing';
import { type FakeAuth, startFakeAuth } from './support/fake-services.js';
import { readJson, startGateway, type StartedGateway, systemTokens } from './support/gateway-harness.js';

const TOKEN = 'Kp3xV9_qW-2mZ7bN4cR8sA';
const UNKNOWN = 'AAAAAAAAAAAAAAAAAAAAAA';

/** A stand-in for on-call's link endpoint: 404 for a token it does not know, else what it got. */
async function startFakeOnCall() {
  const app = express();
  app.use(express.text({ type: () => true }));
  app.all('/{*rest}', (req, res) => {
    if (req.headers[ACTION_TOKEN_HEADER] !== TOKEN) return res.status(404).type('html').send('<p>This link is not valid.</p>');
    res.status(200).json({ method: req.method, path: req.originalUrl, headers: req.headers, body: req.body });
  });
  return listen(app);
}

describe('gateway alert action links', () => {
  const logged: string[] = [];
  let auth: FakeAuth;
  let onCall: Awaited<ReturnType<typeof startFakeOnCall>>;
  let gateway: StartedGateway;
  const open = (token: string, init: RequestInit = {}, from = '10.0.0.1') =>
    fetch(`${gateway.url}/alert-actions/${token}`, { ...init, headers: { 'x-forwarded-for': from, ...init.headers } });

  beforeAll(async () => {
    auth = await startFakeAuth(systemTokens);
    onCall = await startFakeOnCall();
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => logged.push(chunk.toString()));
    gateway = await startGateway({
      logger: createLogger({ service: 'gateway', level: 'debug', stream }),
      authUrl: auth.url,
      env: { ON_CALL_URL: onCall.url, RATE_LIMIT_ALERT_ACTIONS: '5', AUTH_FAILURES_PER_WINDOW: '2', TRUSTED_PROXIES: 'loopback' },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await onCall.close();
    await auth.close();
  });

  it('forwards GET and POST without a credential or principal, the token moved from the path to its header', async () => {
    const got = await readJson(await open(TOKEN, { headers: { authorization: 'Bearer fw_somebody', [PRINCIPAL_HEADER]: 'forged' } }));
    expect(got.method).toBe('GET');
    expect(got.path).toBe('/alert-actions');
    expect(got.headers[ACTION_TOKEN_HEADER]).toBe(TOKEN);
    expect(got.headers.authorization).toBeUndefined();
    expect(got.headers[PRINCIPAL_HEADER]).toBeUndefined();
    const posted = await open(
      TOKEN,
      { method: 'POST', body: 'Digits=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      '10.0.0.2',
    );
    expect(await readJson(posted)).toMatchObject({ method: 'POST', path: '/alert-actions', body: 'Digits=1' });
  });

  it('refuses other paths and methods before forwarding', async () => {
    expect((await open('not-a-token', {}, '10.0.0.3')).status).toBe(404);
    expect((await open(TOKEN, { method: 'DELETE' }, '10.0.0.3')).status).toBe(404);
    expect((await fetch(`${gateway.url}/alert-actions`, { headers: { 'x-forwarded-for': '10.0.0.3' } })).status).toBe(404);
    expect((await open(`${TOKEN}/x`, {}, '10.0.0.3')).status).toBe(404);
  });

  it('counts requests per client address', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await open(TOKEN, {}, '10.0.0.4')).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await open(TOKEN, {}, '10.0.0.5')).status).toBe(200);
  });

  it("counts a link on-call does not know against the address's guessing budget", async () => {
    // Two fit the budget; the third is counted and blocks the address.
    for (let i = 0; i < 3; i++) expect((await open(UNKNOWN, {}, '10.0.0.6')).status).toBe(404);
    // The guard counts asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const blocked = await open(TOKEN, {}, '10.0.0.6');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await open(TOKEN, {}, '10.0.0.7')).status).toBe(200);
  });

  it('never logs a link, whatever the method or what follows it', async () => {
    for (const method of ['GET', 'POST', 'HEAD', 'PUT', 'OPTIONS']) await open(TOKEN, { method }, '10.0.0.8');
    await open(`${TOKEN}/x`, {}, '10.0.0.8');
    await open(`${TOKEN}?utm=1`, {}, '10.0.0.8');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logged.join('').length).toBeGreaterThan(0);
    expect(logged.join('')).not.toContain(TOKEN);
  });
});
