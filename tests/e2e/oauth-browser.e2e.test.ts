import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import { ensureChromium, launchChromium, type LaunchedBrowser } from '../support/oauth-chromium.js';
import { insecure, PASSWORD, seedTeam, type OAuthTeam } from '../support/oauth-e2e.js';
import { api, startSystem, type RunningSystem } from '../support/system.js';

let system: RunningSystem;
let team: OAuthTeam;
let chrome: LaunchedBrowser;

beforeAll(async () => {
  await ensureChromium();
  system = await startSystem();
  team = await seedTeam(system, 'Browser E2E');
  chrome = await launchChromium();
}, 20 * 60_000);
afterAll(async () => {
  await chrome?.close();
  await system?.stop();
});

/** A native tool's loopback receiver on an ephemeral port: resolves with the callback URL. */
async function loopbackReceiver() {
  let resolveUrl!: (url: string) => void;
  const received = new Promise<string>((r) => (resolveUrl = r));
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p id="done">You can close this window.</p>');
    resolveUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}${req.url}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { redirectUri: `http://127.0.0.1:${port}/callback`, received, close: () => new Promise((r) => server.close(r)) };
}

describe('OAuth login and consent in headless Chromium', () => {
  it('takes a native client with a loopback redirect from sign-in to a working API call', async () => {
    // Registered with one port, redirected to another: any loopback port works (RFC 8252).
    const config = await client.dynamicClientRegistration(
      new URL(system.authUrl),
      { redirect_uris: ['http://127.0.0.1:1/callback'], token_endpoint_auth_method: 'none', client_name: 'Firewatch CLI (browser test)' },
      undefined,
      insecure,
    );
    const receiver = await loopbackReceiver();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const scope = 'openid profile ir.environments:read ir.environments:write';
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: receiver.redirectUri,
      scope,
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });

    const page = await chrome.browser.newPage();
    try {
      await page.goto(url.toString());
      await page.waitForSelector('#client-name');
      expect(await page.textContent('#client-name')).toBe('Firewatch CLI (browser test)');
      await page.fill('#email', team.user.email);
      await page.fill('#password', 'wrong password');
      await page.click('#sign-in');
      await page.waitForSelector('#error');
      expect(await page.textContent('#error')).toContain('Wrong email or password');
      await page.fill('#password', PASSWORD);
      await page.click('#sign-in');
      await page.waitForSelector('#approve');
      expect(await page.textContent('#scopes')).toContain('ir.environments:write');
      await page.click('#approve');
      await page.waitForSelector('#done');
    } finally {
      await page.close();
    }

    const callback = await receiver.received;
    await receiver.close();
    const tokens = await client.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier, expectedState: state });
    const created = await api(system.gatewayUrl, 'POST', '/v1/environments', {
      token: tokens.access_token,
      body: { data: { type: 'environments', attributes: { name: 'From the browser' } } },
    });
    expect(created.status).toBe(201);
    const listed = await api(system.gatewayUrl, 'GET', '/v1/environments', { token: tokens.access_token });
    expect(listed.body.data.map((e: { attributes: { name: string } }) => e.attributes.name)).toContain('From the browser');
  });
});
