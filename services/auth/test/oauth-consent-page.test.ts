import { GRANULAR_SCOPES } from '@firewatch/auth';
import { authorizeViaPages, submit } from '../../../tests/support/oauth-flow.js';
import {
  LOOPBACK_REDIRECT,
  openInteraction,
  PASSWORD,
  pkcePair,
  postLogin,
  publicClientId,
  registerClient,
  startOAuthHarness,
  type OAuthHarness,
} from './support/oauth-harness.js';

// What the login and consent pages reveal and say (docs/oauth.md).
let h: OAuthHarness;
beforeAll(async () => {
  h = await startOAuthHarness();
}, 60_000);
afterAll(async () => {
  await h.close();
});

/** Signs in on a fresh interaction and returns the consent page. */
async function consentPage(clientId: string, scope: string) {
  const { jar, page } = await openInteraction(h.url, clientId, { scope });
  const step = await submit(jar, page, '/login', { email: h.team.email, password: PASSWORD });
  if (!step.page) throw new Error(`no consent page: ${step.redirect}`);
  return step.page;
}

describe('login page', () => {
  it('does not name the team a client is bound to before sign-in', async () => {
    const clientId = await publicClientId(h.url, { scope: 'openid' });
    const q = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: LOOPBACK_REDIRECT,
      scope: 'openid',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    await authorizeViaPages(`${h.url}/oauth/authorize?${q}`, { email: h.team.email, password: PASSWORD });
    expect(await h.db.knex('oauth_client_teams').where({ client_id: clientId }).first()).toMatchObject({ team_id: h.team.id });

    const { page } = await openInteraction(h.url, clientId, { scope: 'openid' });
    expect(page.status).toBe(200);
    expect(page.html).toContain('name="password"');
    expect(page.html).not.toContain('Blue team');
    // A wrong password does not reveal it either.
    const { jar, page: again } = await openInteraction(h.url, clientId, { scope: 'openid' });
    expect((await postLogin(jar, again, { email: h.otherTeam.email, password: 'wrong' })).html).not.toContain('Blue team');
  });
});

describe('consent page', () => {
  it('shows where the browser goes next and marks a dynamically registered client unverified', async () => {
    const clientId = await publicClientId(h.url, { client_name: 'Firewatch CLI', scope: 'openid ir.environments:read' });
    const page = await consentPage(clientId, 'openid ir.environments:read');
    expect(page.html).toContain('Unverified third-party application');
    expect(page.html).toMatch(/<strong id="redirect-host">127\.0\.0\.1:43210<\/strong>/);
    expect(page.html).toContain('Environments: read <small>');
    expect(page.html).not.toContain('id="writes"');
  });

  it('lists in words, per resource, the read and write access a client registered without scope asks for', async () => {
    const registered = await registerClient(h.url, { redirect_uris: [LOOPBACK_REDIRECT], token_endpoint_auth_method: 'none' });
    expect(registered.body.scope.split(' ')).toEqual(expect.arrayContaining(GRANULAR_SCOPES)); // docs/api-contract.md §3.4
    const page = await consentPage(registered.body.client_id, ['openid', ...GRANULAR_SCOPES].join(' '));
    expect(page.html).toContain('<h2>Incident response</h2>');
    expect(page.html).toContain('<h2>On-call</h2>');
    expect(page.html).toContain('Incidents: read and change');
    expect(page.html).toContain('Escalation policies: read and change');
    expect(page.html).toContain('Know who you are');
    expect(page.html).toMatch(/id="writes">It will be able to <strong>change<\/strong> data/);
    // One line per resource, not one per scope.
    expect(page.html.match(/<li>/g)).toHaveLength(1 + GRANULAR_SCOPES.length / 2);
  });
});

describe('provider error page', () => {
  it('is never cached or framed and runs no scripts, like the login pages', async () => {
    const q = new URLSearchParams({ client_id: 'no-such-client', response_type: 'code', redirect_uri: LOOPBACK_REDIRECT, scope: 'openid' });
    const res = await fetch(`${h.url}/oauth/authorize?${q}`, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('invalid_client');
    for (const name of ['cache-control', 'x-frame-options', 'content-security-policy', 'referrer-policy', 'x-content-type-options']) {
      expect([name, res.headers.get(name)]).toEqual([name, expect.any(String)]);
    }
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
