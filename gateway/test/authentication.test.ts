import { type FakeAuth, type FakeUpstream, freshPrincipal, startFakeAuth, startFakeUpstream } from './support/fake-services.js';
import { bearer, readJson, startGateway, type StartedGateway, systemTokens } from './support/gateway-harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('gateway authentication', () => {
  let auth: FakeAuth;
  let upstream: FakeUpstream;
  let gateway: StartedGateway;

  beforeAll(async () => {
    auth = await startFakeAuth(systemTokens);
    upstream = await startFakeUpstream();
    gateway = await startGateway({
      authUrl: auth.url,
      env: { INCIDENT_CONFIG_URL: upstream.url, CREDENTIAL_CACHE_TTL_MS: '200', RATE_LIMIT_READS: '1000', RATE_LIMIT_TEAM_READS: '1000' },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    await auth.close();
  });
  beforeEach(() => {
    auth.calls.length = 0;
    auth.delayMs = 0;
  });

  async function expect401(res: Response) {
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="firewatch"/);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    const body = await readJson(res);
    expect(body.errors[0]).toMatchObject({ status: '401', title: 'Unauthorized' });
    expect(typeof body.errors[0].detail).toBe('string');
  }

  it.each(['/v1/environments', '/v1/no_such_collection', '/v1'])('refuses %s without a bearer credential', async (path) => {
    await expect401(await fetch(`${gateway.url}${path}`));
    expect(auth.calls).toHaveLength(0);
    expect(upstream.received).toHaveLength(0);
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['no token', 'Bearer'],
    ['an empty token', 'Bearer '],
    ['two words', 'Bearer two words'],
    ['characters no token has', 'Bearer <script>'],
    ['a 5000-character token', `Bearer ${'a'.repeat(5000)}`],
  ])('refuses a header with %s without asking the auth service', async (_label, header) => {
    await expect401(await fetch(`${gateway.url}/v1/environments`, { headers: { authorization: header } }));
    expect(auth.calls).toHaveLength(0);
  });

  it.each(['/v1/environments', '/v1/no_such_collection'])('refuses an unknown credential on %s', async (path) => {
    const res = await fetch(`${gateway.url}${path}`, { headers: bearer(`unknown-${path.length}`) });
    await expect401(res);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(auth.calls).toEqual([{ token: `unknown-${path.length}`, systemSubject: 'gateway', contentType: 'application/json' }]);
    expect(upstream.received).toHaveLength(0);
  });

  it('accepts a known credential, with any case of the scheme', async () => {
    auth.grant('fw_known', freshPrincipal());
    expect((await fetch(`${gateway.url}/v1/environments`, { headers: bearer('fw_known') })).status).toBe(200);
    expect((await fetch(`${gateway.url}/v1/environments`, { headers: { authorization: 'bearer fw_known' } })).status).toBe(200);
  });

  it('caches answers, positive and negative, and asks again after the TTL', async () => {
    auth.grant('fw_cached', freshPrincipal());
    for (let i = 0; i < 5; i++) {
      expect((await fetch(`${gateway.url}/v1/environments`, { headers: bearer('fw_cached') })).status).toBe(200);
      expect((await fetch(`${gateway.url}/v1/environments`, { headers: bearer('fw_never') })).status).toBe(401);
    }
    expect(auth.calls.map((c) => c.token).sort()).toEqual(['fw_cached', 'fw_never']);
    await sleep(250);
    await fetch(`${gateway.url}/v1/environments`, { headers: bearer('fw_cached') });
    expect(auth.calls.filter((c) => c.token === 'fw_cached')).toHaveLength(2);
  });

  it('refuses a revoked key within the credential cache TTL', async () => {
    auth.grant('fw_revoked', freshPrincipal());
    expect((await fetch(`${gateway.url}/v1/environments`, { headers: bearer('fw_revoked') })).status).toBe(200);
    auth.revoke('fw_revoked');
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 1000) {
      status = (await fetch(`${gateway.url}/v1/environments`, { headers: bearer('fw_revoked') })).status;
      if (status === 200) await sleep(20);
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(200 + 100);
  });

  it('coalesces concurrent resolutions of one token into one call', async () => {
    auth.grant('fw_burst', freshPrincipal());
    auth.delayMs = 100;
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${gateway.url}/v1/environments`, { headers: bearer('fw_burst') }).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(20).fill(200));
    expect(auth.calls.filter((c) => c.token === 'fw_burst')).toHaveLength(1);
  });

  it("answers 503, not 401, when the auth service refuses the gateway's system token", async () => {
    auth.grant('fw_known', freshPrincipal());
    const misconfigured = await startGateway({
      authUrl: auth.url,
      env: { INCIDENT_CONFIG_URL: upstream.url, SYSTEM_TOKEN_SECRET: 'another-secret-0123456789abcdef0123' },
    });
    try {
      const res = await fetch(`${misconfigured.url}/v1/environments`, { headers: bearer('fw_known') });
      expect(res.status).toBe(503);
      expect(auth.calls.at(-1)?.systemSubject).toBeNull();
    } finally {
      await misconfigured.close();
    }
  });

  it('answers 503 when the auth service is down, and does not cache that', async () => {
    const down = await startGateway({ authUrl: 'http://127.0.0.1:1', env: { INCIDENT_CONFIG_URL: upstream.url } });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${down.url}/v1/environments`, { headers: bearer('fw_known') });
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
        expect((await readJson(res)).errors[0]).toMatchObject({ status: '503', code: 'service_unavailable' });
      }
    } finally {
      await down.close();
    }
  });
});
