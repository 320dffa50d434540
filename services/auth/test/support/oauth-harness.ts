import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import type { SystemTokens } from '@firewatch/auth';
import { migrate } from '@firewatch/db';
import { createLogger } from '@firewatch/logger';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { migrations } from '../../migrations/index.js';
import { createAuthApp } from '../../src/app.js';
import { createOAuthServer, type OAuthServer } from '../../src/create-oauth-server.js';
import { createServices, type AuthServices } from '../../src/create-services.js';
import type { LoginLimits } from '../../src/domain/login-attempts.store.js';
import type { ConcurrencyLimitOptions } from '@firewatch/concurrency';
import { CookieJar, follow, type PageStep } from '../../../../tests/support/oauth-flow.js';
import { callerChecks, SECRET } from './harness.js';

export const PASSWORD = 'correct horse battery staple';

export interface OAuthHarness {
  url: string;
  db: TestDatabase;
  services: AuthServices;
  systemTokens: SystemTokens;
  team: { id: number; userId: number; observerId: number; email: string; observerEmail: string };
  otherTeam: { id: number; userId: number; email: string };
  /** The Redis key prefix of this harness's limits. */
  redisPrefix: string;
  /** Another server on the same database and Redis prefix (a second replica). */
  replicaUrl: string;
  resolve(token: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

async function serve(build: (issuer: string) => http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', build(url));
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The auth service with its OAuth server on a fresh database, as two replicas. */
export interface OAuthHarnessOptions {
  graceSeconds?: number;
  perHour?: number;
  loginLimits?: Partial<LoginLimits>;
  passwordHashing?: Partial<ConcurrencyLimitOptions>;
  /** Express `trust proxy` (TRUST_PROXY parsed); default: trust none. */
  trustProxy?: false | number | string[];
  unusedClientDays?: number;
  /** Overrides TEST_REDIS_URL (an unreachable Redis for fail-closed tests). */
  redisUrl?: string;
}

export async function startOAuthHarness(options: OAuthHarnessOptions = {}): Promise<OAuthHarness> {
  const db = await createTestDatabase('fw_oauth');
  await migrate(db.knex, migrations);
  const logger = createLogger({ service: 'auth-test', level: 'silent' });
  const services = createServices({ knex: db.knex, logger, refreshGraceSeconds: options.graceSeconds ?? 1 });
  const checks = callerChecks();
  const prefix = `fw-test-${randomBytes(4).toString('hex')}:`;
  const servers: OAuthServer[] = [];
  const start = () =>
    serve((issuer) => {
      const oauth = createOAuthServer({
        services,
        logger,
        issuer,
        devKeySeed: SECRET,
        redisUrl: options.redisUrl ?? process.env.TEST_REDIS_URL,
        redisKeyPrefix: prefix,
        registrationsPerHour: options.perHour,
        loginLimits: options.loginLimits,
        passwordHashing: options.passwordHashing,
        trustProxy: options.trustProxy,
        unusedClientDays: options.unusedClientDays,
      });
      servers.push(oauth);
      return createAuthApp({ services, knex: db.knex, ...checks, logger, oauth: oauth.router, trustProxy: options.trustProxy });
    });
  const main = await start();
  const replica = await start();

  const t1 = await services.identity.createTeam({ name: 'Blue team' });
  const user = await services.identity.createUser({
    team_id: t1.id,
    email: 'ann@blue.test',
    name: 'Ann',
    role: 'user',
    on_call_role: 'user',
    password: PASSWORD,
  });
  const observer = await services.identity.createUser({
    team_id: t1.id,
    email: 'obi@blue.test',
    name: 'Obi',
    role: 'observer',
    on_call_role: 'observer',
    password: PASSWORD,
  });
  const t2 = await services.identity.createTeam({ name: 'Red team' });
  const other = await services.identity.createUser({
    team_id: t2.id,
    email: 'rob@red.test',
    name: 'Rob',
    role: 'admin',
    on_call_role: 'admin',
    password: PASSWORD,
  });

  return {
    url: main.url,
    replicaUrl: replica.url,
    redisPrefix: prefix,
    db,
    services,
    systemTokens: checks.systemTokens,
    team: { id: t1.id, userId: Number(user.id), observerId: Number(observer.id), email: 'ann@blue.test', observerEmail: 'obi@blue.test' },
    otherTeam: { id: t2.id, userId: Number(other.id), email: 'rob@red.test' },
    async resolve(token) {
      const res = await fetch(`${main.url}/internal/credentials/resolve`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await checks.systemTokens.sign('gateway')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      return { status: res.status, body: await res.json() };
    },
    async close() {
      await main.close();
      await replica.close();
      await Promise.all(servers.map((s) => s.close()));
      await db.drop();
    },
  };
}

/** POST a form (or JSON) to the token-ish endpoints; parsed JSON back. */
export async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export async function registerClient(url: string, metadata: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(metadata),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

export const LOOPBACK_REDIRECT = 'http://127.0.0.1:43210/callback';

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Registers a public loopback client (201 expected); its client_id. */
export async function publicClientId(url: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await registerClient(url, {
    redirect_uris: [LOOPBACK_REDIRECT],
    token_endpoint_auth_method: 'none',
    client_name: 'Test CLI',
    ...extra,
  });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.client_id as string;
}

/** Starts a fresh authorization request and returns its first page (login or consent). */
export async function openInteraction(url: string, clientId: string, params: Record<string, string> = {}) {
  const jar = new CookieJar();
  const q = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: LOOPBACK_REDIRECT,
    scope: 'openid profile',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    ...params,
  });
  const step = await follow(jar, `${url}/oauth/authorize?${q}`);
  if (!step.page) throw new Error(`no page: redirected to ${step.redirect}`);
  return { jar, page: step.page };
}

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  html: string;
}

/**
 * Submits the login form of `page` from the local address `from` (any 127.0.0.0/8
 * address works on Linux), so tests can play several client addresses.
 */
export function postLogin(jar: CookieJar, page: PageStep, fields: Record<string, string>, from = '127.0.0.1'): Promise<RawReply> {
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.html)?.[1] ?? '';
  const target = new URL(`${page.url}/login`);
  const body = new URLSearchParams({ csrf, ...fields }).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(
      target,
      {
        method: 'POST',
        localAddress: from,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          origin: target.origin,
          cookie: jar.header(),
        },
      },
      (res) => {
        let html = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (html += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, html }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
