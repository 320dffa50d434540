import { PassThrough } from 'node:stream';
import { createLogger } from '@firewatch/logger';
import { type FakeAuth, type FakeUpstream, freshPrincipal, startFakeAuth, startFakeUpstream } from './support/fake-services.js';
import { bearer, readJson, startGateway, type StartedGateway, systemTokens, uniquePrefix } from './support/gateway-harness.js';

/** A logger whose JSON lines are kept, parsed, in `lines`. */
function capturedLogs(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) =>
    c
      .toString()
      .split('\n')
      .filter(Boolean)
      .forEach((l) => lines.push(JSON.parse(l))),
  );
  return { lines, logger: createLogger({ service: 'gateway', level, stream }) };
}

describe('gateway health and logs', () => {
  let auth: FakeAuth;
  let upstream: FakeUpstream;
  const started: StartedGateway[] = [];
  const start = async (...args: Parameters<typeof startGateway>) => {
    const gw = await startGateway(...args);
    started.push(gw);
    return gw;
  };
  const redisUrl = () => process.env.TEST_REDIS_URL!;

  beforeAll(async () => {
    auth = await startFakeAuth(systemTokens);
    upstream = await startFakeUpstream();
  });
  afterAll(async () => {
    for (const gw of started) await gw.close();
    await upstream.close();
    await auth.close();
  });

  it('answers /healthz without a credential', async () => {
    const gw = await start({ authUrl: 'http://127.0.0.1:1' });
    const res = await fetch(`${gw.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await readJson(res)).toEqual({ status: 'ok' });
  });

  it('is ready when Redis and the auth service answer', async () => {
    const gw = await start({ authUrl: auth.url, redis: { url: redisUrl(), keyPrefix: uniquePrefix('health') } });
    const res = await fetch(`${gw.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await readJson(res)).toEqual({ status: 'ready', checks: { redis: 'ok', auth: 'ok' } });
  });

  it('is not ready while Redis is down', async () => {
    const gw = await start({ authUrl: auth.url, redis: { url: 'redis://127.0.0.1:1', keyPrefix: uniquePrefix('health') } });
    const res = await fetch(`${gw.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await readJson(res)).toEqual({ status: 'not_ready', checks: { redis: 'down', auth: 'ok' } });
  });

  it('is not ready while the auth service is down, and reports an in-memory store as such', async () => {
    const gw = await start({ authUrl: 'http://127.0.0.1:1' });
    const res = await fetch(`${gw.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await readJson(res)).toEqual({ status: 'not_ready', checks: { redis: 'not_configured', auth: 'down' } });
  });

  it('logs one access line per request with the caller id and never the token', async () => {
    const { lines, logger } = capturedLogs('http');
    const gw = await start({ authUrl: auth.url, env: { INCIDENT_CONFIG_URL: upstream.url }, logger });
    const principal = freshPrincipal();
    auth.grant('fw_logged_secret', principal);

    await fetch(`${gw.url}/v1/environments?page%5Bsize%5D=2`, { headers: bearer('fw_logged_secret', { 'x-request-id': 'log-1' }) });
    await fetch(`${gw.url}/v1/environments`, { headers: bearer('fw_unknown_secret', { 'x-request-id': 'log-2' }) });
    await new Promise((r) => setTimeout(r, 50));

    const access = lines.filter((l) => l.message === 'request');
    expect(access).toHaveLength(2);
    expect(access[0]).toMatchObject({
      level: 'http',
      service: 'gateway',
      method: 'GET',
      path: '/v1/environments',
      status: 200,
      request_id: 'log-1',
      caller: `key:${principal.credential.type === 'api_key' ? principal.credential.id : ''}`,
    });
    expect(typeof access[0].duration_ms).toBe('number');
    expect(access[1]).toMatchObject({ status: 401, request_id: 'log-2' });
    expect(access[1].caller).toBeUndefined();
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it("names the request's id in the warning lines of the request", async () => {
    const { lines, logger } = capturedLogs('warn');
    const gw = await start({ authUrl: auth.url, env: { COMMUNICATIONS_URL: 'http://127.0.0.1:1' }, logger });
    auth.grant('fw_warned_secret', freshPrincipal());

    const res = await fetch(`${gw.url}/v1/communications`, { headers: bearer('fw_warned_secret', { 'x-request-id': 'warn-1' }) });
    expect(res.status).toBe(503);
    await new Promise((r) => setTimeout(r, 50));

    expect(lines.find((l) => l.message === 'upstream request failed')).toMatchObject({
      level: 'warn',
      request_id: 'warn-1',
      upstream: 'communications',
      code: 'ECONNREFUSED',
    });
  });

  it("names the request's id in what its credential resolve and the documents' fetch log", async () => {
    const { lines, logger } = capturedLogs('warn');
    // A system token the auth service refuses, and a service whose document cannot be fetched.
    const gw = await start({
      authUrl: auth.url,
      env: {
        INCIDENT_CONFIG_URL: upstream.url,
        COMMUNICATIONS_URL: 'http://127.0.0.1:1',
        SYSTEM_TOKEN_SECRET: 'another-secret-0123456789abcdef0123',
      },
      logger,
    });
    auth.grant('fw_refused_secret', freshPrincipal());

    expect(
      (await fetch(`${gw.url}/v1/environments`, { headers: bearer('fw_refused_secret', { 'x-request-id': 'resolve-1' }) })).status,
    ).toBe(503);
    await fetch(`${gw.url}/openapi.json`, { headers: { 'x-request-id': 'docs-1' } });
    await new Promise((r) => setTimeout(r, 50));

    expect(lines.find((l) => String(l.message).startsWith('the auth service refused the gateway system token'))).toMatchObject({
      level: 'error',
      request_id: 'resolve-1',
    });
    expect(lines.find((l) => l.message === 'upstream OpenAPI document unavailable')).toMatchObject({ level: 'warn', request_id: 'docs-1' });
  });
});
