import { createAuthFailureGuard } from '../src/domain/auth-failure-guard.js';
import { createMemoryRateLimitStore } from '../src/data/memory-rate-limit.store.js';
import { type FakeAuth, type FakeUpstream, freshPrincipal, startFakeAuth, startFakeUpstream } from './support/fake-services.js';
import { bearer, readJson, startGateway, type StartedGateway, systemTokens } from './support/gateway-harness.js';

const get = (gateway: StartedGateway, token: string, headers: Record<string, string> = {}) =>
  fetch(`${gateway.url}/v1/environments`, { headers: bearer(token, headers) });

async function statuses(gateway: StartedGateway, tokensToSend: string[], headers: Record<string, string> = {}) {
  const out: number[] = [];
  for (const token of tokensToSend) out.push((await get(gateway, token, headers)).status);
  return out;
}

const guesses = (label: string, n: number) => Array.from({ length: n }, (_, i) => `guess-${label}-${i}`);

// Guessing tokens costs the auth service a lookup each; past a budget per client address,
// tokens that do not resolve get 429, while a credential that resolves always passes.
describe('credential guessing', () => {
  let auth: FakeAuth;
  let upstream: FakeUpstream;
  let direct: StartedGateway;
  let proxied: StartedGateway;

  beforeAll(async () => {
    auth = await startFakeAuth(systemTokens);
    upstream = await startFakeUpstream();
    const env = {
      INCIDENT_CONFIG_URL: upstream.url,
      CREDENTIAL_CACHE_TTL_MS: '60000',
      RATE_LIMIT_READS: '1000',
      RATE_LIMIT_TEAM_READS: '1000',
      AUTH_FAILURES_PER_WINDOW: '3',
    };
    direct = await startGateway({ authUrl: auth.url, env });
    // The test client plays a TLS proxy on loopback that appends the client's address.
    proxied = await startGateway({ authUrl: auth.url, env: { ...env, TRUSTED_PROXIES: '127.0.0.1,::1' } });
  });
  afterAll(async () => {
    await direct.close();
    await proxied.close();
    await upstream.close();
    await auth.close();
  });

  it('answers 429 to tokens that do not resolve once the budget is spent; cached and valid ones still pass', async () => {
    auth.grant('fw_valid', freshPrincipal());
    expect((await get(direct, 'fw_valid')).status).toBe(200);

    // Three failures fit the budget; the fourth is counted and refused by the shared store.
    expect(await statuses(direct, guesses('a', 5))).toEqual([401, 401, 401, 401, 429]);
    const refused = await get(direct, 'guess-late');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await readJson(refused)).toEqual({ error: 'Rate limit exceeded. Try again later.' });

    // A credential already cached is not a guess, and neither is one that resolves now.
    expect((await get(direct, 'fw_valid')).status).toBe(200);
    auth.grant('fw_valid_uncached', freshPrincipal());
    expect((await get(direct, 'fw_valid_uncached')).status).toBe(200);
  });

  it('behind a trusted proxy, counts the client named in X-Forwarded-For, not the proxy', async () => {
    const clientA = { 'x-forwarded-for': '203.0.113.5' };
    const clientB = { 'x-forwarded-for': '198.51.100.7' };
    expect(await statuses(proxied, guesses('b', 6), clientA)).toEqual([401, 401, 401, 401, 429, 429]);
    // Another client behind the same proxy is untouched: its unknown tokens are plain 401s,
    // and its valid, uncached key answers 200.
    expect(await statuses(proxied, ['guess-b-other'], clientB)).toEqual([401]);
    auth.grant('fw_b_valid', freshPrincipal());
    expect((await get(proxied, 'fw_b_valid', clientB)).status).toBe(200);
    // A's forged left-most hop changes nothing: the right-most untrusted hop is A.
    expect(await statuses(proxied, ['guess-b-forged'], { 'x-forwarded-for': '198.51.100.7, 203.0.113.5' })).toEqual([429]);
  });

  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    // The direct gateway's loopback address is over budget since the first test.
    expect(await statuses(direct, ['guess-c-0'], { 'x-forwarded-for': '192.0.2.44' })).toEqual([429]);
  });

  it('counts IPv6 clients by /64, so one subscriber cannot rotate through its addresses', async () => {
    expect(await statuses(proxied, guesses('d', 3), { 'x-forwarded-for': '2001:db8:1:2::1' })).toEqual([401, 401, 401]);
    expect(await statuses(proxied, ['guess-d-x', 'guess-d-y'], { 'x-forwarded-for': '2001:db8:1:2:ffff::9' })).toEqual([401, 429]);
    expect(await statuses(proxied, ['guess-d-z'], { 'x-forwarded-for': '2001:db8:1:3::1' })).toEqual([401]);
  });
});

describe('look-ups for blocked addresses', () => {
  it('run a few at a time, queue briefly, and answer busy beyond that', async () => {
    const guard = createAuthFailureGuard({
      store: createMemoryRateLimitStore(),
      limit: 1,
      windowMs: 60_000,
      probeConcurrency: 2,
      probeQueue: 1,
      probeWaitMs: 200,
    });
    let inFlight = 0;
    let most = 0;
    const lookup = async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 50));
      inFlight--;
      return 'resolved';
    };
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => guard.probe(`a${i}`, lookup)));
    // Two run at once, the third waits for a slot, the fourth finds the queue full.
    expect(results).toEqual(['resolved', 'resolved', 'resolved', 'busy']);
    expect(most).toBe(2);
  });

  it('give each address a share, so one flood does not starve other addresses', async () => {
    const guard = createAuthFailureGuard({
      store: createMemoryRateLimitStore(),
      limit: 1,
      windowMs: 60_000,
      probeConcurrency: 2,
      probeQueue: 10,
      probeWaitMs: 500,
      probesPerAddress: 2,
    });
    const lookup = () => new Promise<string>((r) => setTimeout(() => r('resolved'), 30));
    const flood = Array.from({ length: 6 }, () => guard.probe('flooder', lookup));
    const other = guard.probe('neighbour', lookup);
    expect(await Promise.all(flood)).toEqual(['resolved', 'resolved', 'busy', 'busy', 'busy', 'busy']);
    expect(await other).toBe('resolved');
    // Shares are given back: the flooder may try again.
    expect(await guard.probe('flooder', lookup)).toBe('resolved');
  });
});
