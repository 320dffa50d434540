import { createTestDatabase } from '@firewatch/testing';
import { migrate } from '@firewatch/db';
import { authorizeViaPages } from '../../../tests/support/oauth-flow.js';
import { migrations } from '../migrations/index.js';
import { findLiveAccessToken } from '../src/data/oidc-payloads.adapter.js';
import {
  LOOPBACK_REDIRECT,
  PASSWORD,
  pkcePair,
  postForm,
  publicClientId,
  startOAuthHarness,
  type OAuthHarness,
} from './support/oauth-harness.js';

// Tokens and codes are stored hashed (docs/oauth.md, "Tokens at rest").
let h: OAuthHarness;
beforeAll(async () => {
  h = await startOAuthHarness();
}, 60_000);
afterAll(async () => {
  await h.close();
});

async function tokensFor(clientId: string) {
  const { verifier, challenge } = pkcePair();
  const q = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: LOOPBACK_REDIRECT,
    scope: 'openid offline_access ir.incidents:read',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const cb = new URL(await authorizeViaPages(`${h.url}/oauth/authorize?${q}`, { email: h.team.email, password: PASSWORD }));
  const code = cb.searchParams.get('code')!;
  const res = await postForm(`${h.url}/oauth/token`, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: LOOPBACK_REDIRECT,
    client_id: clientId,
  });
  expect(res.status).toBe(200);
  return { code, ...(res.body as { access_token: string; refresh_token: string }) };
}

/** Rows whose id or payload contains `secret` anywhere. */
const rowsHolding = async (secret: string) =>
  Number(
    (
      await h.db
        .knex('oidc_payloads')
        .where('id', secret)
        .orWhereRaw('payload::text LIKE ?', [`%${secret}%`])
        .count({ n: '*' })
    )[0].n,
  );

describe('token storage', () => {
  it('keeps no issued token or code in the database, and the tokens still work', async () => {
    const clientId = await publicClientId(h.url, { scope: 'openid offline_access ir.incidents:read' });
    const { code, access_token, refresh_token } = await tokensFor(clientId);
    for (const secret of [code, access_token, refresh_token]) expect(await rowsHolding(secret)).toBe(0);

    const resolved = await h.resolve(access_token);
    expect(resolved.status).toBe(200);
    expect(resolved.body.principal).toMatchObject({ user_id: h.team.userId, scopes: ['ir.incidents:read'] });
    const refreshed = await postForm(`${h.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token, client_id: clientId });
    expect(refreshed.status).toBe(200);
    expect(await rowsHolding(refreshed.body.refresh_token)).toBe(0);
    expect((await h.resolve(refreshed.body.access_token)).status).toBe(200);
  });

  it('rewrites rows stored in clear before the upgrade, so their tokens keep working', async () => {
    const db = await createTestDatabase('fw_oauth_mig');
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '20250620_0005'));
      await migrate(db.knex, before);
      const token = 'A'.repeat(43);
      const exp = Math.floor(Date.now() / 1000) + 3600;
      await db.knex('oidc_payloads').insert({
        model: 'AccessToken',
        id: token,
        expires_at: new Date(exp * 1000),
        payload: JSON.stringify({ jti: token, kind: 'AccessToken', clientId: 'c1', accountId: '1', scope: 'openid', exp }),
      });
      await migrate(db.knex, migrations);
      const row = await db.knex('oidc_payloads').where({ model: 'AccessToken' }).first();
      expect(row.id).not.toBe(token);
      expect(JSON.stringify(row.payload)).not.toContain(token);
      expect((await findLiveAccessToken(db.knex, token))?.payload).toMatchObject({ clientId: 'c1', accountId: '1' });
    } finally {
      await db.drop();
    }
  });
});
