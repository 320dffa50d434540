import { randomInt } from 'node:crypto';
import { registerClient, startOAuthHarness, type OAuthHarness } from './support/oauth-harness.js';

// Client addresses (docs/oauth.md): with TRUST_PROXY=1 the test client plays the one proxy
// in front of auth; the proxy appends the address it saw to whatever X-Forwarded-For the
// client sent.
let h: OAuthHarness;
beforeAll(async () => {
  h = await startOAuthHarness({ perHour: 10, trustProxy: 1 });
}, 60_000);
afterAll(async () => {
  await h.close();
});

const META = { redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' };
const spoofed = () => `${randomInt(1, 224)}.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const viaProxy = (client: string, claimed = spoofed()) => registerClient(h.url, META, { 'x-forwarded-for': `${claimed}, ${client}` });

describe('registration limit behind a proxy (TRUST_PROXY=1)', () => {
  it('counts the address the proxy appended, whatever the client put on the left', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await viaProxy('203.0.113.9')).status);
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
    // Another client behind the same proxy has its own budget.
    expect((await viaProxy('203.0.113.10')).status).toBe(201);
  });

  it('buckets IPv6 clients by /64', async () => {
    for (let i = 1; i <= 10; i++) expect((await viaProxy(`2001:db8:5:6::${i.toString(16)}`)).status).toBe(201);
    expect((await viaProxy('2001:db8:5:6:ffff:1:2:3')).status).toBe(429);
    expect((await viaProxy('2001:db8:5:7::1')).status).toBe(201);
  });
});
