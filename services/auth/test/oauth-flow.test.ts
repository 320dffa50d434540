import { createHash, randomBytes } from 'node:crypto';
import { authorizeViaPages, CookieJar, follow, submit } from '../../../tests/support/oauth-flow.js';
import { storedId } from '../src/data/oidc-payloads.adapter.js';
import { operator } from '../src/domain/credential-bounds.rules.js';
import { PASSWORD, postForm, registerClient, startOAuthHarness, type OAuthHarness } from './support/oauth-harness.js';

let h: OAuthHarness;
beforeAll(async () => {
  h = await startOAuthHarness({ graceSeconds: 1 });
}, 60_000);
afterAll(async () => {
  await h.close();
});

const REDIRECT = 'http://127.0.0.1:43210/callback';

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function publicClient(scope = 'openid profile ir.environments:read') {
  const res = await registerClient(h.url, {
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
    client_name: 'Flow CLI',
    scope,
  });
  expect(res.status).toBe(201);
  return res.body.client_id as string;
}

function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  const q = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'openid profile ir.environments:read',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'xyz',
    ...extra,
  });
  return `${h.url}/oauth/authorize?${q}`;
}

async function codeFor(clientId: string, email = h.team.email, redirect = REDIRECT, scope = 'openid profile ir.environments:read') {
  const { verifier, challenge } = pkce();
  const cb = new URL(
    await authorizeViaPages(authorizeUrl(clientId, challenge, { redirect_uri: redirect, scope }), { email, password: PASSWORD }),
  );
  return { code: cb.searchParams.get('code'), error: cb.searchParams.get('error'), cb, verifier };
}

const exchange = (clientId: string, code: string, verifier: string, redirect = REDIRECT) =>
  postForm(`${h.url}/oauth/token`, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: redirect,
    client_id: clientId,
  });

describe('authorization code with PKCE', () => {
  it('signs in, consents, and exchanges the code once for a 1 h token the gateway resolves', async () => {
    const clientId = await publicClient();
    const { code, cb, verifier } = await codeFor(clientId);
    expect(cb.searchParams.get('state')).toBe('xyz');
    const tokens = await exchange(clientId, code!, verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'openid profile ir.environments:read' });
    expect(tokens.body.refresh_token).toEqual(expect.any(String));
    expect(tokens.body.id_token.split('.')).toHaveLength(3);
    expect(JSON.parse(Buffer.from(tokens.body.id_token.split('.')[0], 'base64url').toString()).alg).toBe('RS256');

    const resolved = await h.resolve(tokens.body.access_token);
    expect(resolved.status).toBe(200);
    expect(resolved.body.principal).toMatchObject({
      team_id: h.team.id,
      user_id: h.team.userId,
      role: 'user',
      credential: { type: 'oauth', client_id: clientId },
      scopes: ['ir.environments:read'],
      record_ids: null,
    });
    // The second use of a code fails (and revokes what it issued).
    const again = await exchange(clientId, code!, verifier);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect((await h.resolve(tokens.body.access_token)).status).toBe(401);
  });

  it('accepts any loopback port for a native client and refuses an unregistered redirect URI', async () => {
    const clientId = await publicClient();
    const { code, verifier } = await codeFor(clientId, h.team.email, 'http://127.0.0.1:5999/callback');
    expect((await exchange(clientId, code!, verifier, 'http://127.0.0.1:5999/callback')).status).toBe(200);
    const { challenge } = pkce();
    const page = await follow(new CookieJar(), authorizeUrl(clientId, challenge, { redirect_uri: 'http://127.0.0.1:5999/elsewhere' }));
    expect(page.redirect).toBeUndefined();
    expect(page.page?.status).toBe(400);
    expect(page.page?.html).toContain('redirect_uri');
  });

  it('refuses a wrong verifier, an expired code, a missing PKCE challenge and plain PKCE', async () => {
    const clientId = await publicClient();
    const first = await codeFor(clientId);
    const wrong = await exchange(clientId, first.code!, pkce().verifier);
    expect(wrong.body.error).toBe('invalid_grant');
    const second = await codeFor(clientId);
    await h.db
      .knex('oidc_payloads')
      .where({ model: 'AuthorizationCode', id: storedId('AuthorizationCode', second.code!) })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await exchange(clientId, second.code!, second.verifier)).body.error).toBe('invalid_grant');

    const noPkce = await follow(
      new CookieJar(),
      `${h.url}/oauth/authorize?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: REDIRECT, scope: 'openid' })}`,
    );
    expect(new URL(noPkce.redirect!).searchParams.get('error')).toBe('invalid_request');
    const plain = await follow(new CookieJar(), authorizeUrl(clientId, 'x'.repeat(43), { code_challenge_method: 'plain' }));
    expect(new URL(plain.redirect!).searchParams.get('error')).toBe('invalid_request');
  });

  it('requires PKCE from confidential clients too', async () => {
    const res = await registerClient(h.url, {
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'openid',
    });
    expect(res.status).toBe(201);
    const q = new URLSearchParams({
      client_id: res.body.client_id,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'openid',
      state: 's',
    });
    const step = await follow(new CookieJar(), `${h.url}/oauth/authorize?${q}`);
    const cb = new URL(step.redirect!);
    expect(cb.searchParams.get('error')).toBe('invalid_request');
    expect(cb.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('shows errors on the login page, checks CSRF, and lets the user deny', async () => {
    const clientId = await publicClient();
    const jar = new CookieJar();
    const start = await follow(jar, authorizeUrl(clientId, pkce().challenge));
    expect(start.page?.html).toContain('Flow CLI');
    const bad = await submit(jar, start.page!, '/login', { email: h.team.email, password: 'nope' });
    expect(bad.page?.status).toBe(401);
    expect(bad.page?.html).toContain('Wrong email or password.');
    const forged = await fetch(`${start.page!.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
      body: new URLSearchParams({ csrf: 'forged', email: h.team.email, password: PASSWORD }).toString(),
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    const login = await submit(jar, bad.page!, '/login', { email: h.team.email, password: PASSWORD });
    expect(login.page?.html).toContain('ir.environments:read');
    const denied = await submit(jar, login.page!, '/confirm', { decision: 'deny' });
    expect(new URL(denied.redirect!).searchParams.get('error')).toBe('access_denied');
  });

  it("binds the client to the first user's team and refuses other teams' users", async () => {
    const clientId = await publicClient();
    expect((await codeFor(clientId)).code).toEqual(expect.any(String));
    const jar = new CookieJar();
    const start = await follow(jar, authorizeUrl(clientId, pkce().challenge));
    const refused = await submit(jar, start.page!, '/login', { email: h.otherTeam.email, password: PASSWORD });
    expect(refused.page?.status).toBe(403);
    expect(refused.page?.html).toContain('This application works with another team.');
    // Not even a signed-in user of another team learns the bound team's name.
    expect(refused.page?.html).not.toContain('Blue team');
    expect(await h.db.knex('oauth_client_teams').where({ client_id: clientId }).first()).toMatchObject({ team_id: h.team.id });
  });
});

describe('refresh tokens', () => {
  async function tokensFor() {
    const clientId = await publicClient();
    const { code, verifier } = await codeFor(clientId);
    return { clientId, tokens: (await exchange(clientId, code!, verifier)).body };
  }
  const refresh = (clientId: string, rt: string) =>
    postForm(`${h.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: rt, client_id: clientId });

  it('rotates on use; a retry within the grace period gets the same successor, and a reuse after it revokes the grant', async () => {
    const { clientId, tokens } = await tokensFor();
    const first = await refresh(clientId, tokens.refresh_token);
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token);
    const retry = await refresh(clientId, tokens.refresh_token);
    expect(retry.status).toBe(200);
    // Idempotent rotation: no second chain to fork from.
    expect(retry.body.refresh_token).toBe(first.body.refresh_token);
    const successor = await h.db
      .knex('oidc_payloads')
      .where({ model: 'RefreshToken', id: storedId('RefreshToken', first.body.refresh_token) })
      .first();
    const chain = await h.db.knex('oidc_payloads').where({ model: 'RefreshToken', grant_id: successor.grant_id });
    expect(chain).toHaveLength(2); // the original (used) and its one successor
    await new Promise((r) => setTimeout(r, 1500));
    const reuse = await refresh(clientId, tokens.refresh_token);
    expect(reuse.body.error).toBe('invalid_grant');
    expect((await refresh(clientId, first.body.refresh_token)).body.error).toBe('invalid_grant');
    expect((await h.resolve(first.body.access_token)).status).toBe(401);
  });

  it('logout: revoking the refresh token ends its access tokens at once', async () => {
    const { clientId, tokens } = await tokensFor();
    expect((await h.resolve(tokens.access_token)).status).toBe(200);
    const revoked = await postForm(`${h.url}/oauth/revoke`, {
      token: tokens.refresh_token,
      token_type_hint: 'refresh_token',
      client_id: clientId,
    });
    expect(revoked.status).toBe(200);
    expect((await h.resolve(tokens.access_token)).status).toBe(401);
    expect((await refresh(clientId, tokens.refresh_token)).body.error).toBe('invalid_grant');
  });

  it("deleting a user ends its sessions, grants and tokens in the user's transaction", async () => {
    const email = 'leaver@blue.test';
    const user = await h.services.identity.createUser({ team_id: h.team.id, email, name: 'Lee Leaver', password: PASSWORD });
    const clientId = await publicClient();
    const { code, verifier } = await codeFor(clientId, email);
    const tokens = (await exchange(clientId, code!, verifier)).body;
    expect((await h.resolve(tokens.access_token)).body.principal).toMatchObject({ user_id: Number(user.id) });
    const held = () => h.db.knex('oidc_payloads').whereRaw("payload->>'accountId' = ?", [user.id]).pluck('model');
    expect(new Set(await held())).toEqual(new Set(['Session', 'Grant', 'AccessToken', 'RefreshToken', 'AuthorizationCode']));

    await h.services.users.remove(operator(h.team.id), user.id);
    expect(await held()).toEqual([]);
    expect((await h.resolve(tokens.access_token)).status).toBe(401);
    expect((await refresh(clientId, tokens.refresh_token)).body.error).toBe('invalid_grant');
  });
});

describe('userinfo', () => {
  it('answers any valid token, with identity claims, and refuses others with a Bearer challenge', async () => {
    const clientId = await publicClient('ir.environments:read');
    // No openid, no profile: the token still works at userinfo, with the identity claims only.
    const { code, verifier } = await codeFor(clientId, h.team.email, REDIRECT, 'ir.environments:read');
    const tokens = (await exchange(clientId, code!, verifier)).body;
    const res = await fetch(`${h.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sub: String(h.team.userId), team_id: h.team.id, role: 'user', on_call_role: 'user' });
    const bad = await fetch(`${h.url}/oauth/userinfo`, { headers: { authorization: 'Bearer not-a-real-token-0123456789abcdef' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('invalid_token');
  });
});
