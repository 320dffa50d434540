// Shared steps of the OAuth end-to-end tests: a team with users, openid-client
// configurations, and ID-token verification against the published keys.
import { createPublicKey, verify } from 'node:crypto';
import * as client from 'openid-client';
import { authorizeViaPages } from './oauth-flow.js';
import type { RunningSystem } from './system.js';

export const PASSWORD = 'correct horse battery staple';
export const insecure = { execute: [client.allowInsecureRequests] };

export interface OAuthTeam {
  teamId: number;
  adminToken: string;
  user: { id: number; email: string };
  observer: { id: number; email: string };
}

/** A team (bootstrap) with a plain user and an observer who can sign in. */
export async function seedTeam(system: RunningSystem, name: string): Promise<OAuthTeam> {
  const slug = name.toLowerCase().replace(/\W+/g, '-');
  const boot = await system.cli('bootstrap', '--team-name', name, '--email', `admin@${slug}.test`, '--password', PASSWORD);
  const teamId = boot.team.id;
  const mk = async (who: string, role: string) => {
    const u = await system.cli(
      'users',
      'create',
      '--team-id',
      String(teamId),
      '--email',
      `${who}@${slug}.test`,
      '--name',
      who,
      '--role',
      role,
      '--on-call-role',
      role,
      '--password',
      PASSWORD,
    );
    return { id: u.id as number, email: `${who}@${slug}.test` };
  };
  const adminToken = boot.api_key?.token ?? boot.token;
  return { teamId, adminToken, user: await mk('user', 'user'), observer: await mk('observer', 'observer') };
}

/** Registers a public native client with a loopback redirect and returns its configuration. */
export async function registerPublic(system: RunningSystem, scope: string, redirect = 'http://127.0.0.1:8765/callback') {
  return client.dynamicClientRegistration(
    new URL(system.authUrl),
    { redirect_uris: [redirect], token_endpoint_auth_method: 'none', client_name: 'E2E CLI', scope },
    undefined,
    insecure,
  );
}

/** The whole authorization code + PKCE flow through the login and consent pages. */
export async function signIn(config: client.Configuration, email: string, scope: string, redirect = 'http://127.0.0.1:8765/callback') {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirect,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const callback = await authorizeViaPages(url.toString(), { email, password: PASSWORD });
  return client.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier, expectedState: state });
}

/** Verifies an RS256 JWT against the server's published JWKS; returns its claims. */
export async function verifyIdToken(authUrl: string, jwt: string): Promise<Record<string, unknown>> {
  const [h, p, s] = jwt.split('.');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString());
  if (header.alg !== 'RS256') throw new Error(`alg ${header.alg}`);
  const jwks = (await (await fetch(`${authUrl}/oauth/discovery/keys`)).json()) as { keys: { kid: string }[] };
  const jwk = jwks.keys.find((k) => k.kid === header.kid);
  if (!jwk) throw new Error(`kid ${header.kid} is not published`);
  const ok = verify(
    'RSA-SHA256',
    Buffer.from(`${h}.${p}`),
    createPublicKey({ key: jwk as never, format: 'jwk' }),
    Buffer.from(s, 'base64url'),
  );
  if (!ok) throw new Error('bad signature');
  return JSON.parse(Buffer.from(p, 'base64url').toString());
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
