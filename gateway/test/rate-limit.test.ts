import type { Redis } from 'ioredis';
import type { Principal } from '@firewatch/auth';
import { connectRedis } from '../src/data/redis-client.js';
import { type FakeAuth, type FakeUpstream, freshPrincipal, startFakeAuth, startFakeUpstream } from './support/fake-services.js';
import {
  bearer,
  readJson,
  dropKeys,
  silent,
  startGateway,
  type StartedGateway,
  systemTokens,
  uniquePrefix,
} from './support/gateway-harness.js';

const RATE_LIMIT_BODY = '{"error":"Rate limit exceeded. Try again later."}';

describe('gateway rate limits (shared Redis)', () => {
  const prefix = uniquePrefix('rate-limit');
  let redis: Redis;
  let auth: FakeAuth;
  let upstream: FakeUpstream;
  let a: StartedGateway;
  let b: StartedGateway;
  let tokenSeq = 0;
  const keyIds = new Map<string, string>();

  beforeAll(async () => {
    redis = await connectRedis(process.env.TEST_REDIS_URL!, silent);
    auth = await startFakeAuth(systemTokens);
    upstream = await startFakeUpstream();
    const options = {
      authUrl: auth.url,
      env: { INCIDENT_CONFIG_URL: upstream.url },
      redis: { url: process.env.TEST_REDIS_URL!, keyPrefix: prefix },
    };
    a = await startGateway(options);
    b = await startGateway(options);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await upstream.close();
    await auth.close();
    await dropKeys(redis, prefix);
    redis.disconnect();
  });

  /** A token for a new API key, so each test starts with empty buckets. */
  function newKey(rateLimits?: { read: number | null; write: number | null }): string {
    const token = `fw_rl_${++tokenSeq}`;
    const principal = freshPrincipal();
    auth.grant(token, principal, rateLimits);
    keyIds.set(token, principal.credential.type === 'api_key' ? principal.credential.id : '');
    return token;
  }

  const call = (gw: StartedGateway, token: string, method = 'GET', path = '/v1/environments') =>
    fetch(`${gw.url}${path}`, {
      method,
      headers: bearer(token, { 'content-type': 'application/vnd.api+json' }),
      body: method === 'GET' ? undefined : '{"data":{"type":"environments","attributes":{"name":"x"}}}',
    });

  function expectHeaders(res: Response, limit: number, used: number, windowSeconds = 60) {
    expect(res.headers.get('x-ratelimit-limit')).toBe(`${limit}, ${limit};window=${windowSeconds}`);
    expect(res.headers.get('x-ratelimit-used')).toBe(String(used));
    expect(res.headers.get('x-ratelimit-remaining')).toBe(String(Math.max(0, limit - used)));
    const reset = Number(res.headers.get('x-ratelimit-reset'));
    const now = Date.now() / 1000;
    expect(reset).toBeGreaterThan(now);
    expect(reset).toBeLessThanOrEqual(Math.ceil(now) + windowSeconds + 1);
  }

  async function expect429(res: Response, limit: number) {
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.text()).toBe(RATE_LIMIT_BODY);
    expectHeaders(res, limit, limit);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  }

  it('lets 5 reads through with exact headers and refuses the 6th; writes are counted apart', async () => {
    const token = newKey();
    const resets: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const res = await call(a, token);
      expect(res.status).toBe(200);
      expectHeaders(res, 5, i);
      resets.push(Number(res.headers.get('x-ratelimit-reset')));
    }
    // Reset names the moment the first request leaves the window: the same for all five.
    expect(new Set(resets).size).toBe(1);
    await expect429(await call(a, token), 5);

    for (let i = 1; i <= 3; i++) {
      const res = await call(a, token, 'POST');
      expect(res.status).toBe(201);
      expectHeaders(res, 3, i);
    }
    await expect429(await call(a, token, 'PATCH', '/v1/environments/1'), 3);
    await expect429(await call(a, token, 'DELETE', '/v1/environments/1'), 3);
    // HEAD and OPTIONS are reads: still refused.
    expect((await fetch(`${a.url}/v1/environments`, { method: 'HEAD', headers: bearer(token) })).status).toBe(429);
    expect((await fetch(`${a.url}/v1/environments`, { method: 'OPTIONS', headers: bearer(token) })).status).toBe(429);
  });

  it('does not count refused requests', async () => {
    const token = newKey();
    for (let i = 0; i < 5; i++) await call(a, token);
    for (let i = 0; i < 10; i++) await expect429(await call(a, token), 5);
    expect(await redis.zcard(`${prefix}read:key:${keyIds.get(token)}`)).toBe(5);
  });

  it('shares the window between two gateway replicas', async () => {
    const token = newKey();
    for (let i = 1; i <= 5; i++) {
      const res = await call(i % 2 ? a : b, token);
      expect(res.status).toBe(200);
      expectHeaders(res, 5, i);
    }
    await expect429(await call(b, token), 5);
    await expect429(await call(a, token), 5);
  });

  it('uses the per-key limits the auth service reports', async () => {
    const token = newKey({ read: 8, write: null });
    for (let i = 1; i <= 8; i++) {
      const res = await call(a, token);
      expect(res.status).toBe(200);
      expectHeaders(res, 8, i);
    }
    await expect429(await call(b, token), 8);
    const write = await call(a, token, 'POST');
    expect(write.status).toBe(201);
    expectHeaders(write, 3, 1);
  });

  it('counts OAuth tokens per client and user, not per token', async () => {
    const principal = freshPrincipal({ credential: { type: 'oauth', client_id: `client-${Date.now()}` }, user_id: 42 });
    auth.grant('fw_oauth_1', principal);
    auth.grant('fw_oauth_2', { ...principal, scopes: ['ir.environments:read'] });
    auth.grant('fw_oauth_other_user', { ...principal, user_id: 43 });
    for (let i = 1; i <= 5; i++) expect((await call(a, i % 2 ? 'fw_oauth_1' : 'fw_oauth_2')).status).toBe(200);
    await expect429(await call(b, 'fw_oauth_1'), 5);
    await expect429(await call(b, 'fw_oauth_2'), 5);
    expect((await call(a, 'fw_oauth_other_user')).status).toBe(200);
  });

  it('shares a team budget across its keys, so more keys do not mean more requests (#8)', async () => {
    const team = freshPrincipal();
    const keyOf = (n: number, limits?: { read: number | null; write: number | null }) => {
      const token = `fw_team_${team.team_id}_${n}`;
      const principal = freshPrincipal({ team_id: team.team_id });
      auth.grant(token, principal, limits);
      keyIds.set(token, principal.credential.type === 'api_key' ? principal.credential.id : '');
      return token;
    };
    const teamLimited = await startGateway({
      authUrl: auth.url,
      env: { INCIDENT_CONFIG_URL: upstream.url, RATE_LIMIT_TEAM_READS: '10' },
      redis: { url: process.env.TEST_REDIS_URL!, keyPrefix: prefix },
    });
    try {
      const [k1, k2, k3] = [keyOf(1), keyOf(2), keyOf(3)];
      for (let i = 1; i <= 5; i++) expect((await call(teamLimited, k1)).status).toBe(200);
      for (let i = 1; i <= 4; i++) expect((await call(teamLimited, k2)).status).toBe(200);
      // The tenth read of the team, from a third key, still fits; its headers name the
      // binding budget: the team's, with no room left, not the key's four.
      const tenth = await call(teamLimited, k3);
      expect(tenth.status).toBe(200);
      expectHeaders(tenth, 10, 10);
      // The eleventh is refused though the key has room of its own,
      await expect429(await call(teamLimited, k3), 10);
      // and, refused, it is not counted against the key either.
      expect(await redis.zcard(`${prefix}read:key:${keyIds.get(k3)}`)).toBe(1);
      // A key with an arrangement of its own is held to it, not to the team default.
      const arranged = keyOf(4, { read: 20, write: null });
      const res = await call(teamLimited, arranged);
      expect(res.status).toBe(200);
      expectHeaders(res, 20, 11);
    } finally {
      await teamLimited.close();
    }
  });

  it('shares a user budget across their OAuth clients and personal keys (#8)', async () => {
    const base = freshPrincipal({ user_id: 77 });
    const as = (n: number, credential: Principal['credential']) => {
      const token = `fw_user_${base.team_id}_${n}`;
      auth.grant(token, { ...base, credential });
      return token;
    };
    const tokensOfUser = [
      as(1, { type: 'oauth', client_id: 'app-1' }),
      as(2, { type: 'oauth', client_id: 'app-2' }),
      as(3, { type: 'api_key', id: `personal-${base.team_id}`, kind: 'personal' }),
    ];
    const userLimited = await startGateway({
      authUrl: auth.url,
      env: { INCIDENT_CONFIG_URL: upstream.url, RATE_LIMIT_USER_READS: '7' },
      redis: { url: process.env.TEST_REDIS_URL!, keyPrefix: prefix },
    });
    try {
      for (let i = 0; i < 7; i++) expect((await call(userLimited, tokensOfUser[i % 3])).status).toBe(200);
      await expect429(await call(userLimited, tokensOfUser[1]), 7);
      // A team-wide key of the same team acts for no user: only the team budget binds it.
      const teamKey = `fw_user_${base.team_id}_team`;
      auth.grant(teamKey, freshPrincipal({ team_id: base.team_id }));
      expect((await call(userLimited, teamKey)).status).toBe(200);
    } finally {
      await userLimited.close();
    }
  });

  it("puts the headers on services' error answers and on the gateway's own 404", async () => {
    const token = newKey();
    const missing = await call(a, token, 'GET', '/v1/incidents/missing');
    expect(missing.status).toBe(404);
    expect((await readJson(missing)).errors[0].code).toBe('not_found');
    expectHeaders(missing, 5, 1);
    const unknown = await call(b, token, 'GET', '/v1/nothing_here');
    expect(unknown.status).toBe(404);
    expect((await readJson(unknown)).errors[0].code).toBe('route_not_found');
    expectHeaders(unknown, 5, 2);
  });

  it('fails closed with 503 when Redis is down', async () => {
    const down = await startGateway({
      authUrl: auth.url,
      env: { INCIDENT_CONFIG_URL: upstream.url },
      redis: { url: 'redis://127.0.0.1:1', keyPrefix: prefix },
    });
    try {
      const before = upstream.received.length;
      const res = await call(down, newKey());
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
      expect((await readJson(res)).errors[0]).toMatchObject({ status: '503', code: 'rate_limiter_unavailable' });
      expect(upstream.received.length).toBe(before);
    } finally {
      await down.close();
    }
  });
});
