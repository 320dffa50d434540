import { authorizeViaPages, CookieJar, follow } from '../../../tests/support/oauth-flow.js';
import {
  LOOPBACK_REDIRECT, PASSWORD, pkcePair, publicClientId, startOAuthHarness, type OAuthHarness,
} from './support/oauth-harness.js';

let h: OAuthHarness;
beforeAll(async () => {
  h = await startOAuthHarness({ unusedClientDays: 7 });
}, 60_000);
afterAll(async () => {
  await h.close();
});

const authorizeUrl = (clientId: string) =>
  `${h.url}/oauth/authorize?${new URLSearchParams({
    client_id: clientId, response_type: 'code', redirect_uri: LOOPBACK_REDIRECT, scope: 'openid',
    code_challenge: pkcePair().challenge, code_challenge_method: 'S256',
  })}`;
const clientRow = (id: string) => h.db.knex('oidc_payloads').where({ model: 'Client', id }).first();

describe('dynamic clients nobody authorizes expire (security review #6)', () => {
  it('lives OAUTH_UNUSED_CLIENT_DAYS after registration, and for good once a user authorizes it', async () => {
    const clientId = await publicClientId(h.url);
    const days = ((await clientRow(clientId)).expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const cb = new URL(await authorizeViaPages(authorizeUrl(clientId), { email: h.team.email, password: PASSWORD }));
    expect(cb.searchParams.get('code')).toEqual(expect.any(String));
    expect((await clientRow(clientId)).expires_at).toBeNull();
  });

  it('is unknown once expired', async () => {
    const clientId = await publicClientId(h.url);
    await h.db.knex('oidc_payloads').where({ model: 'Client', id: clientId }).update({ expires_at: new Date(Date.now() - 1000) });
    const step = await follow(new CookieJar(), authorizeUrl(clientId));
    expect(step.redirect).toBeUndefined();
    expect(step.page?.status).toBe(400);
    expect(step.page?.html).toContain('invalid_client');
  });
});
