import * as client from 'openid-client';
import { CookieJar, follow } from '../support/oauth-flow.js';
import { insecure, registerPublic, seedTeam, signIn, sleep, verifyIdToken, type OAuthTeam } from '../support/oauth-e2e.js';
import { api, startSystem, type RunningSystem } from '../support/system.js';

let system: RunningSystem;
let team: OAuthTeam;
const env = (name: string) => ({ data: { type: 'environments', attributes: { name } } });
const bearer = (token: string) => ({ token });

beforeAll(async () => {
  system = await startSystem({
    webhooks: true,
    gatewayEnv: { RATE_LIMIT_READS: '40', RATE_LIMIT_WRITES: '20', RATE_LIMIT_USER_READS: '40', RATE_LIMIT_USER_WRITES: '20' },
  });
  team = await seedTeam(system, 'OAuth E2E');
}, 180_000);
afterAll(async () => {
  await system?.stop();
});

describe('OAuth 2.0 / OpenID Connect server', () => {
  it("publishes both discovery documents naming exactly the contract's endpoints", async () => {
    const config = await client.discovery(new URL(system.authUrl), 'unused', undefined, undefined, insecure);
    const meta = config.serverMetadata();
    const a = system.authUrl;
    expect(meta).toMatchObject({
      issuer: a,
      authorization_endpoint: `${a}/oauth/authorize`,
      token_endpoint: `${a}/oauth/token`,
      revocation_endpoint: `${a}/oauth/revoke`,
      registration_endpoint: `${a}/oauth/register`,
      userinfo_endpoint: `${a}/oauth/userinfo`,
      introspection_endpoint: `${a}/oauth/introspect`,
      jwks_uri: `${a}/oauth/discovery/keys`,
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
    expect(
      Object.keys(meta)
        .filter((k) => k.endsWith('_endpoint'))
        .sort(),
    ).toEqual([
      'authorization_endpoint',
      'introspection_endpoint',
      'registration_endpoint',
      'revocation_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
    ]);
    const rfc8414 = await (await fetch(`${a}/.well-known/oauth-authorization-server`)).json();
    expect(rfc8414.token_endpoint).toBe(`${a}/oauth/token`);
    expect((await (await fetch(`${a}/oauth/discovery/keys`)).json()).keys.length).toBeGreaterThanOrEqual(2);
  });

  it('runs registration, code + PKCE through the pages, an API call, userinfo and a verified ID token', async () => {
    const scope = 'openid profile ir.environments:read';
    const config = await registerPublic(system, scope);
    expect(config.clientMetadata().client_secret).toBeUndefined();
    const tokens = await signIn(config, team.user.email, scope);
    expect(tokens.expires_in).toBe(3600);
    const claims = await verifyIdToken(system.authUrl, tokens.id_token!);
    expect(claims).toMatchObject({ iss: system.authUrl, sub: String(team.user.id), aud: config.clientMetadata().client_id });

    const res = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${system.gatewayUrl}/v1/environments`), 'GET');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^40, 40;window=60/);
    const info = await client.fetchUserInfo(config, tokens.access_token, String(team.user.id));
    expect(info).toMatchObject({ sub: String(team.user.id), team_id: team.teamId, role: 'user', on_call_role: 'user', name: 'user' });
  });

  it('limits a token to its scopes within the role', async () => {
    const read = await signIn(await registerPublic(system, 'ir.environments:read'), team.user.email, 'ir.environments:read');
    expect((await api(system.gatewayUrl, 'GET', '/v1/environments', bearer(read.access_token))).status).toBe(200);
    const denied = await api(system.gatewayUrl, 'POST', '/v1/environments', { ...bearer(read.access_token), body: env('Nope') });
    expect(denied.status).toBe(403);
    expect(denied.body.errors[0].code).toBe('insufficient_scope');

    const write = 'ir.environments:write';
    const observer = await signIn(await registerPublic(system, write), team.observer.email, write);
    expect(
      (await api(system.gatewayUrl, 'POST', '/v1/environments', { ...bearer(observer.access_token), body: env('Observer') })).status,
    ).toBe(403);
    const user = await signIn(await registerPublic(system, write), team.user.email, write);
    expect((await api(system.gatewayUrl, 'POST', '/v1/environments', { ...bearer(user.access_token), body: env('Staging') })).status).toBe(
      201,
    );

    // Webhooks have no granular scope (docs/api-contract.md §1): only all / ir.all reach them.
    const hooks = await api(system.gatewayUrl, 'GET', '/v1/webhooks/event_types', bearer(user.access_token));
    expect(hooks.status).toBe(403);
  });

  it('rotates refresh tokens with a grace period, detects reuse, and logout ends the access token at the gateway', async () => {
    const scope = 'openid ir.environments:read';
    const config = await registerPublic(system, scope);
    const first = await signIn(config, team.user.email, scope);
    const second = await client.refreshTokenGrant(config, first.refresh_token!);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const retried = await client.refreshTokenGrant(config, first.refresh_token!); // inside the 2 s grace
    expect(retried.access_token).toEqual(expect.any(String));
    await sleep(2500);
    await expect(client.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(client.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    const fresh = await signIn(config, team.user.email, scope);
    expect((await api(system.gatewayUrl, 'GET', '/v1/environments', bearer(fresh.access_token))).status).toBe(200);
    await client.tokenRevocation(config, fresh.refresh_token!, { token_type_hint: 'refresh_token' });
    await sleep(3500); // the gateway's credential cache (CREDENTIAL_CACHE_TTL_MS 3 s)
    expect((await api(system.gatewayUrl, 'GET', '/v1/environments', bearer(fresh.access_token))).status).toBe(401);
    await expect(client.fetchUserInfo(config, fresh.access_token, client.skipSubjectCheck)).rejects.toBeInstanceOf(
      client.WWWAuthenticateChallengeError,
    );
  });

  it('issues client-credentials tokens to admin-created applications (CLI and API)', async () => {
    const cli = await system.cli(
      'apps',
      'create',
      '--team-id',
      String(team.teamId),
      '--name',
      'Nightly',
      '--scopes',
      'ir.environments:read',
    );
    const config = await client.discovery(new URL(system.authUrl), cli.client_id, cli.client_secret, undefined, insecure);
    const tokens = await client.clientCredentialsGrant(config, { scope: 'ir.environments:read' });
    expect(tokens.expires_in).toBe(3600);
    expect((await api(system.gatewayUrl, 'GET', '/v1/environments', bearer(tokens.access_token))).status).toBe(200);
    expect((await api(system.gatewayUrl, 'POST', '/v1/environments', { ...bearer(tokens.access_token), body: env('CC') })).status).toBe(
      403,
    );
    expect(await client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck)).toMatchObject({
      sub: String(cli.service_user_id),
      team_id: team.teamId,
    });
    await expect(client.clientCredentialsGrant(config, { scope: 'ir.environments:write' })).rejects.toMatchObject({
      error: 'invalid_scope',
    });

    const created = await api(system.gatewayUrl, 'POST', '/v1/oauth_applications', {
      token: team.adminToken,
      body: { data: { type: 'oauth_applications', attributes: { name: 'Writer', scopes: ['ir.environments:write'] } } },
    });
    expect(created.status).toBe(201);
    const { client_id, client_secret } = created.body.data.attributes;
    const writer = await client.discovery(
      new URL(system.authUrl),
      client_id,
      client_secret,
      client.ClientSecretBasic(client_secret),
      insecure,
    );
    const wt = await client.clientCredentialsGrant(writer, {});
    expect((await api(system.gatewayUrl, 'POST', '/v1/environments', { ...bearer(wt.access_token), body: env('From CC') })).status).toBe(
      201,
    );
  });

  it('answers bad input with the RFC errors and changes nothing', async () => {
    const a = system.authUrl;
    const unknown = await follow(
      new CookieJar(),
      `${a}/oauth/authorize?client_id=nope&response_type=code&redirect_uri=http://127.0.0.1/cb&scope=openid`,
    );
    expect(unknown.page?.status).toBe(400);
    expect(unknown.page?.html).toContain('invalid_client');
    const config = await registerPublic(system, 'openid');
    const wrongRedirect = await follow(
      new CookieJar(),
      client
        .buildAuthorizationUrl(config, {
          redirect_uri: 'https://evil.example/cb',
          scope: 'openid',
          code_challenge: 'x'.repeat(43),
          code_challenge_method: 'S256',
        })
        .toString(),
    );
    expect(wrongRedirect.redirect).toBeUndefined();
    expect(wrongRedirect.page?.html).toContain('invalid_redirect_uri');
    const reg = (body: string) => fetch(`${a}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(await (await reg('{"redirect_uris":["https://a.example/cb"],"scope":"all"}')).json()).toMatchObject({
      error: 'invalid_client_metadata',
    });
    expect(await (await reg('{"redirect_uris":["http://a.example/cb"]}')).json()).toMatchObject({ error: 'invalid_redirect_uri' });
    expect((await reg('{oops')).status).toBe(400);
    const badCode = await fetch(`${a}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'made-up',
        code_verifier: 'v'.repeat(43),
        redirect_uri: 'http://127.0.0.1:8765/callback',
        client_id: config.clientMetadata().client_id,
      }),
    });
    expect(badCode.status).toBe(400);
    expect((await badCode.json()).error).toBe('invalid_grant');
  });
});
