import { GRANULAR_SCOPES } from '@firewatch/auth';
import { registerClient, startOAuthHarness, type OAuthHarness } from './support/oauth-harness.js';

let h: OAuthHarness;
beforeAll(async () => {
  h = await startOAuthHarness({ perHour: 10 });
}, 60_000);
afterAll(async () => {
  await h.close();
});

const clientCount = async () => Number((await h.db.knex('oidc_payloads').where({ model: 'Client' }).count({ n: '*' }))[0].n);

describe('POST /oauth/register (RFC 7591, docs/api-contract.md §3.4)', () => {
  it('registers a public native client with every granular scope when scope is omitted', async () => {
    const res = await registerClient(h.url, { redirect_uris: ['http://localhost:19798/callback'], token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(201);
    expect(res.body.client_secret).toBeUndefined();
    expect(res.body.registration_access_token).toBeUndefined();
    expect(res.body.application_type).toBe('native');
    const scopes = res.body.scope.split(' ');
    expect(scopes).toEqual(expect.arrayContaining(GRANULAR_SCOPES));
    expect(scopes).not.toContain('all');
  });

  it('gives a confidential client its secret once and stores only a hash', async () => {
    const res = await registerClient(h.url, {
      redirect_uris: ['https://app.example.com/cb'],
      token_endpoint_auth_method: 'client_secret_post',
      scope: 'openid ir.incidents:read',
    });
    expect(res.status).toBe(201);
    expect(res.body.client_secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(res.body.scope).toContain('ir.incidents:read');
    const row = await h.db.knex('oidc_payloads').where({ model: 'Client', id: res.body.client_id }).first();
    expect(JSON.stringify(row.payload)).not.toContain(res.body.client_secret);
    expect(row.payload.client_secret).toMatch(/^sha256\$/);
    // No way to read it back: no registration access token is ever issued.
    const readBack = await fetch(`${h.url}/oauth/register/${res.body.client_id}`);
    expect(readBack.status).toBe(401);
    expect(await readBack.text()).not.toContain(res.body.client_secret);
  });

  it.each([
    ['a meta scope', { redirect_uris: ['https://a.example/cb'], scope: 'openid ir.all' }, 'invalid_client_metadata'],
    ['all', { redirect_uris: ['https://a.example/cb'], scope: 'all' }, 'invalid_client_metadata'],
    ['an unknown scope', { redirect_uris: ['https://a.example/cb'], scope: 'ir.nope:read' }, 'invalid_client_metadata'],
    ['plain http to a public host', { redirect_uris: ['http://example.com/cb'] }, 'invalid_redirect_uri'],
    ['a custom scheme', { redirect_uris: ['com.example.app:/cb'] }, 'invalid_redirect_uri'],
    ['no redirect URI', { redirect_uris: [] }, 'invalid_redirect_uri'],
    ['client_credentials', { redirect_uris: ['https://a.example/cb'], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
    [
      'private_key_jwt',
      { redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'private_key_jwt' },
      'invalid_client_metadata',
    ],
    ['a server-only property', { redirect_uris: ['https://a.example/cb'], firewatch_application_id: 'x' }, 'invalid_client_metadata'],
  ])('refuses %s with the RFC error and stores nothing', async (_label, metadata, error) => {
    const before = await clientCount();
    const res = await registerClient(h.url, metadata);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
    expect(res.body.error_description).toEqual(expect.any(String));
    expect(await clientCount()).toBe(before);
  });

  it.each([
    ['sector_identifier_uri', 'https://a.example/sector.json'],
    ['jwks_uri', 'https://a.example/jwks.json'],
    ['request_uris', ['https://a.example/request']],
    ['initiate_login_uri', 'https://a.example/login'],
  ])('refuses %s before anything is fetched', async (name, value) => {
    const before = await clientCount();
    const res = await registerClient(h.url, { redirect_uris: ['https://a.example/cb'], [name]: value });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_client_metadata');
    // Our rule, not a failed fetch: the description names the field and the policy.
    expect(res.body.error_description).toBe(`${name}: not accepted (the server does not fetch client-supplied URLs)`);
    expect(await clientCount()).toBe(before);
  });

  it('answers malformed JSON with invalid_request', async () => {
    const res = await fetch(`${h.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"redirect_uris":',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid_request');
  });

  it('allows 10 registrations per hour per IP across replicas, then 429 with the specification body', async () => {
    // Earlier tests registered 2 clients from this IP; refused requests do not count.
    const meta = { redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' };
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await registerClient(i % 2 ? h.replicaUrl : h.url, meta)).status);
    expect(statuses).toEqual(Array(8).fill(201));
    const refused = await registerClient(h.replicaUrl, meta);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Rate limit exceeded. Try again later.' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await registerClient(h.url, meta)).status).toBe(429);
    // TRUST_PROXY unset: a client-sent X-Forwarded-For changes nothing.
    expect((await registerClient(h.url, meta, { 'x-forwarded-for': '6.6.6.6' })).status).toBe(429);
  });
});
