import { startHarness, type Harness } from './support/harness.js';
import { postForm, startOAuthHarness, type OAuthHarness } from './support/oauth-harness.js';
import { loadOidcKeys, generateSigningKey, OidcKeyConfigError } from '../src/domain/oidc-keys.js';

let h: OAuthHarness;
let api: Harness;
beforeAll(async () => {
  h = await startOAuthHarness();
  api = await startHarness();
}, 60_000);
afterAll(async () => {
  await h.close();
  await api.close();
});

const appDoc = (attributes: Record<string, unknown>) => ({ data: { type: 'oauth_applications', attributes } });

describe('/v1/oauth_applications', () => {
  it('lets an admin create an application whose secret is shown once', async () => {
    const res = await api.request('POST', '/v1/oauth_applications', {
      body: appDoc({ name: 'Pager bridge', scopes: ['oc.alerts:write', 'ir.incidents:read'] }),
    });
    expect(res.status).toBe(201);
    const { id, attributes } = res.body.data;
    expect(attributes).toMatchObject({
      name: 'Pager bridge',
      grant_types: ['client_credentials'],
      scopes: ['oc.alerts:write', 'ir.incidents:read'],
    });
    expect(attributes.client_secret).toEqual(expect.any(String));
    const shown = await api.request('GET', `/v1/oauth_applications/${id}`);
    expect(shown.body.data.attributes.client_secret).toBeUndefined();
    const user = await api.db.knex('users').where({ id: attributes.service_user_id }).first();
    expect(user).toMatchObject({
      team_id: api.team.id,
      is_service_account: true,
      role: 'observer',
      on_call_role: 'user',
      password_hash: null,
    });
    expect(
      (await api.request('GET', '/v1/oauth_applications', { as: { team_id: api.otherTeam.id, user_id: api.otherTeam.adminId } })).body.data,
    ).toEqual([]);
  });

  it('refuses non-admins, meta-less bad scopes and unknown attributes', async () => {
    expect(
      (
        await api.request('POST', '/v1/oauth_applications', {
          as: { user_id: api.team.userId, role: 'user' },
          body: appDoc({ name: 'x', scopes: ['all'] }),
        })
      ).status,
    ).toBe(403);
    const bad = await api.request('POST', '/v1/oauth_applications', {
      body: appDoc({ name: 'x', scopes: ['ir.nope:read'], redirect_uris: [] }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual(
      expect.arrayContaining(['/data/attributes/scopes/0', '/data/attributes/redirect_uris']),
    );
  });
});

describe('client credentials', () => {
  it('issues 1 h tokens within the application scopes that act as its service user, until revoked', async () => {
    const { resource, client_secret } = await h.services.oauth.applications.create(
      { team_id: h.team.id, user_id: null, principal: null },
      { name: 'CI', scopes: ['ir.environments:read'] },
    );
    const { client_id } = resource.attributes;
    const basic = { authorization: `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}` };
    const token = await postForm(`${h.url}/oauth/token`, { grant_type: 'client_credentials' }, basic);
    expect(token.status).toBe(200);
    expect(token.body.expires_in).toBe(3600);
    const resolved = await h.resolve(token.body.access_token);
    expect(resolved.body.principal).toMatchObject({
      team_id: h.team.id,
      user_id: resource.attributes.service_user_id,
      role: 'observer',
      scopes: ['ir.environments:read'],
      credential: { type: 'oauth', client_id },
    });
    const userinfo = await fetch(`${h.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${token.body.access_token}` } });
    expect(await userinfo.json()).toMatchObject({ sub: String(resource.attributes.service_user_id), team_id: h.team.id });

    const outside = await postForm(`${h.url}/oauth/token`, { grant_type: 'client_credentials', scope: 'ir.environments:write' }, basic);
    expect(outside.body.error).toBe('invalid_scope');
    const wrong = await postForm(`${h.url}/oauth/token`, { grant_type: 'client_credentials', client_id, client_secret: 'wrong' });
    expect(wrong.body.error).toBe('invalid_client');
    const post = await postForm(`${h.url}/oauth/token`, { grant_type: 'client_credentials', client_id, client_secret });
    expect(post.status).toBe(200);

    await h.services.oauth.applications.revoke(h.team.id, resource.id);
    expect((await h.resolve(token.body.access_token)).status).toBe(401);
    expect((await postForm(`${h.url}/oauth/token`, { grant_type: 'client_credentials' }, basic)).body.error).toBe('invalid_client');
  });
});

describe('signing keys', () => {
  it('derives the same keys from the same secret, and takes configured ones in order', () => {
    const a = loadOidcKeys({ cookieKeys: [], seed: 's'.repeat(40) });
    const b = loadOidcKeys({ cookieKeys: [], seed: 's'.repeat(40) });
    expect(a.derived).toBe(true);
    expect(a.jwks.keys.map((k) => k.n)).toEqual(b.jwks.keys.map((k) => k.n));
    expect(a.jwks.keys).toHaveLength(2);
    const k1 = generateSigningKey().jwk;
    const k2 = generateSigningKey().jwk;
    const configured = loadOidcKeys({ jwks: JSON.stringify({ keys: [k1, k2] }), cookieKeys: ['c1', 'c0'], seed: 'x'.repeat(40) });
    expect(configured.jwks.keys.map((k) => k.kid)).toEqual([k1.kid, k2.kid]);
    expect(configured.cookieKeys).toEqual(['c1', 'c0']);
    expect(() => loadOidcKeys({ jwks: '{"keys":[]}', cookieKeys: [], seed: 'x'.repeat(40) })).toThrow(OidcKeyConfigError);
    const { d: _d, ...publicOnly } = k1;
    expect(() => loadOidcKeys({ jwks: JSON.stringify({ keys: [publicOnly] }), cookieKeys: [], seed: 'x'.repeat(40) })).toThrow(
      /private RSA/,
    );
  });
});
