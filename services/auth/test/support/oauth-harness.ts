import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createInternalTokens } from '@firewatch/auth';
import { migrate } from '@firewatch/db';
import { createLogger } from '@firewatch/logger';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { migrations } from '../../migrations/index.js';
import { createAuthApp } from '../../src/app.js';
import { createOAuthServer, type OAuthServer } from '../../src/create-oauth-server.js';
import { createServices, type AuthServices } from '../../src/create-services.js';
import { SECRET } from './harness.js';

export const PASSWORD = 'correct horse battery staple';

export interface OAuthHarness {
  url: string;
  db: TestDatabase;
  services: AuthServices;
  tokens: ReturnType<typeof createInternalTokens>;
  team: { id: number; userId: number; observerId: number; email: string; observerEmail: string };
  otherTeam: { id: number; userId: number; email: string };
  /** Another server on the same database and Redis prefix (a second replica). */
  replicaUrl: string;
  resolve(token: string): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

async function serve(build: (issuer: string) => http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', build(url));
  return { url, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

/** The auth service with its OAuth server on a fresh database, as two replicas. */
export async function startOAuthHarness(options: { graceSeconds?: number; perHour?: number } = {}): Promise<OAuthHarness> {
  const db = await createTestDatabase('fw_oauth');
  await migrate(db.knex, migrations);
  const logger = createLogger({ service: 'auth-test', level: 'silent' });
  const services = createServices({ knex: db.knex, logger, refreshGraceSeconds: options.graceSeconds ?? 1 });
  const tokens = createInternalTokens(SECRET);
  const prefix = `fw-test-${randomBytes(4).toString('hex')}:`;
  const servers: OAuthServer[] = [];
  const start = () =>
    serve((issuer) => {
      const oauth = createOAuthServer({
        services, logger, issuer, internalSecret: SECRET, redisUrl: process.env.TEST_REDIS_URL, redisKeyPrefix: prefix,
        registrationsPerHour: options.perHour,
      });
      servers.push(oauth);
      return createAuthApp({ services, tokens, logger, oauth: oauth.router });
    });
  const main = await start();
  const replica = await start();

  const t1 = await services.identity.createTeam({ name: 'Blue team' });
  const user = await services.identity.createUser({ team_id: t1.id, email: 'ann@blue.test', name: 'Ann', role: 'user', on_call_role: 'user', password: PASSWORD });
  const observer = await services.identity.createUser({ team_id: t1.id, email: 'obi@blue.test', name: 'Obi', role: 'observer', on_call_role: 'observer', password: PASSWORD });
  const t2 = await services.identity.createTeam({ name: 'Red team' });
  const other = await services.identity.createUser({ team_id: t2.id, email: 'rob@red.test', name: 'Rob', role: 'admin', on_call_role: 'admin', password: PASSWORD });

  return {
    url: main.url,
    replicaUrl: replica.url,
    db,
    services,
    tokens,
    team: { id: t1.id, userId: Number(user.id), observerId: Number(observer.id), email: 'ann@blue.test', observerEmail: 'obi@blue.test' },
    otherTeam: { id: t2.id, userId: Number(other.id), email: 'rob@red.test' },
    async resolve(token) {
      const res = await fetch(`${main.url}/internal/credentials/resolve`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await tokens.signSystem('gateway')}`, 'content-type': 'application/json' },
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
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export async function registerClient(url: string, metadata: Record<string, unknown>) {
  const res = await fetch(`${url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
  return { status: res.status, headers: res.headers, body: await res.json() };
}
