import { type FakeAuth, type FakeUpstream, freshPrincipal, startFakeAuth, startFakeUpstream } from './support/fake-services.js';
import { bearer, readJson, startGateway, type StartedGateway, tokens } from './support/gateway-harness.js';

// Guessing tokens costs the auth service a lookup each; past a budget per client address,
// uncached tokens are refused before that lookup, while cached ones keep working.
describe('credential guessing', () => {
  let auth: FakeAuth;
  let upstream: FakeUpstream;
  let gateway: StartedGateway;

  beforeAll(async () => {
    auth = await startFakeAuth(tokens);
    upstream = await startFakeUpstream();
    gateway = await startGateway({
      authUrl: auth.url,
      env: { INCIDENT_CONFIG_URL: upstream.url, CREDENTIAL_CACHE_TTL_MS: '60000', RATE_LIMIT_READS: '1000', AUTH_FAILURES_PER_WINDOW: '3' },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    await auth.close();
  });

  it('answers 429 to uncached tokens after the budget, without asking the auth service', async () => {
    auth.grant('fw_valid', freshPrincipal());
    expect((await fetch(`${gateway.url}/v1/environments`, { headers: bearer('fw_valid') })).status).toBe(200);

    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`${gateway.url}/v1/environments`, { headers: bearer(`guess-${i}`) })).status);
    // Three failures fit the budget; the fourth is counted and refused by the shared store,
    // so the fifth uncached token never reaches the auth service.
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expect(auth.calls.filter((c) => c.token.startsWith('guess-'))).toHaveLength(4);

    const refused = await fetch(`${gateway.url}/v1/environments`, { headers: bearer('guess-late') });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await readJson(refused)).toEqual({ error: 'Rate limit exceeded. Try again later.' });

    // A credential already cached is not a guess: it still works from the same address.
    expect((await fetch(`${gateway.url}/v1/environments`, { headers: bearer('fw_valid') })).status).toBe(200);
  });
});
