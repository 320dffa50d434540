import { authorizeViaPages, CookieJar, follow, submit } from '../../../tests/support/oauth-flow.js';
import {
  LOOPBACK_REDIRECT,
  openInteraction,
  PASSWORD,
  pkcePair,
  publicClientId,
  startOAuthHarness,
  type OAuthHarness,
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
    client_id: clientId,
    response_type: 'code',
    redirect_uri: LOOPBACK_REDIRECT,
    scope: 'openid',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  })}`;
const clientRow = (id: string) => h.db.knex('oidc_payloads').where({ model: 'Client', id }).first();

describe('dynamic clients nobody authorizes expire', () => {
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
    await h.db
      .knex('oidc_payloads')
      .where({ model: 'Client', id: clientId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const step = await follow(new CookieJar(), authorizeUrl(clientId));
    expect(step.redirect).toBeUndefined();
    expect(step.page?.status).toBe(400);
    expect(step.page?.html).toContain('invalid_client');
  });
});

describe('bound clients per team', () => {
  const CAP = 100; // OAUTH_CLIENTS_PER_TEAM's default

  async function approve(clientId: string, email: string) {
    const { jar, page } = await openInteraction(h.url, clientId, { scope: 'openid' });
    const consent = await submit(jar, page, '/login', { email, password: PASSWORD });
    return consent.page ? submit(jar, consent.page, '/confirm', { decision: 'approve' }) : consent;
  }

  it('refuses to bind one more client to a team at the cap, with a page saying why; other teams and bound clients are unaffected', async () => {
    // Fill the team up to one below the cap with clients that exist (as if authorized before).
    const already = Number((await h.db.knex('oauth_client_teams').where({ team_id: h.team.id }).count({ n: '*' }))[0].n);
    const filler = Array.from({ length: CAP - 1 - already }, (_, i) => `filler-${i}`);
    await h.db.knex('oidc_payloads').insert(filler.map((id) => ({ model: 'Client', id, payload: JSON.stringify({ client_id: id }) })));
    await h.db.knex('oauth_client_teams').insert(filler.map((id) => ({ client_id: id, team_id: h.team.id })));

    const last = await publicClientId(h.url, { scope: 'openid' });
    expect(new URL((await approve(last, h.team.email)).redirect!).searchParams.get('code')).toEqual(expect.any(String));

    const tooMany = await publicClientId(h.url, { scope: 'openid' });
    const refused = await approve(tooMany, h.team.email);
    expect(refused.redirect).toBeUndefined();
    expect(refused.page?.status).toBe(403);
    expect(refused.page?.html).toContain(`Your team already uses ${CAP} applications`);
    expect(await h.db.knex('oauth_client_teams').where({ client_id: tooMany }).first()).toBeUndefined();

    // Another team has its own count, and a client already bound keeps working.
    expect(new URL((await approve(tooMany, h.otherTeam.email)).redirect!).searchParams.get('code')).toEqual(expect.any(String));
    expect(new URL((await approve(last, h.team.email)).redirect!).searchParams.get('code')).toEqual(expect.any(String));
  });
});
