import { createPrincipalVerifier, createSystemTokens, type SystemTokens } from '@firewatch/auth';
import { migrate } from '@firewatch/db';
import { createLogger } from '@firewatch/logger';
import {
  createTestDatabase,
  listen,
  signAsGateway,
  TEST_PRINCIPAL_KEYS,
  testPrincipal,
  type Listening,
  type TestDatabase,
} from '@firewatch/testing';
import { migrations } from '../../migrations/index.js';
import { createAuthApp } from '../../src/app.js';
import { createServices, type AuthServices } from '../../src/create-services.js';

export const SECRET = 'test-internal-token-secret-0123456789abcdef';
/** The gateway's and auth's shared secret for `/internal` calls, in tests. */
export const SYSTEM_SECRET = 'test-system-token-secret-0123456789abcdef';

/** What the auth app checks callers with: the test gateway key, and the system secret. */
export function callerChecks() {
  return {
    principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'auth' }),
    systemTokens: createSystemTokens(SYSTEM_SECRET),
  };
}
export const JSONAPI = 'application/vnd.api+json';

export interface Harness {
  url: string;
  db: TestDatabase;
  services: AuthServices;
  systemTokens: SystemTokens;
  /** A team with an admin (user) and a plain user, seeded for the suite. */
  team: { id: number; adminId: number; userId: number };
  otherTeam: { id: number; adminId: number };
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  resolve(token: string, systemToken?: string | null): Promise<Reply>;
  close(): Promise<void>;
}

export interface RequestOptions {
  /** Principal overrides; null sends no principal header at all. */
  as?: Record<string, unknown> | null;
  body?: unknown;
  /** Raw body text, sent as is (malformed JSON tests). */
  raw?: string;
  contentType?: string;
  /** Further request headers (If-Match, If-None-Match). */
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export async function startHarness(): Promise<Harness> {
  const db = await createTestDatabase('fw_auth');
  await migrate(db.knex, migrations);
  const logger = createLogger({ service: 'auth-test', level: 'silent' });
  const services = createServices({ knex: db.knex, logger });
  const checks = callerChecks();
  const server: Listening = await listen(createAuthApp({ services, knex: db.knex, ...checks, logger }));

  const t1 = await services.identity.createTeam({ name: 'Team one' });
  const admin = await services.identity.createUser({
    team_id: t1.id,
    email: 'Admin@One.test',
    name: 'Admin',
    role: 'admin',
    on_call_role: 'admin',
  });
  const user = await services.identity.createUser({ team_id: t1.id, email: 'user@one.test', name: 'User' });
  const t2 = await services.identity.createTeam({ name: 'Team two' });
  const admin2 = await services.identity.createUser({
    team_id: t2.id,
    email: 'admin@two.test',
    name: 'Admin 2',
    role: 'admin',
    on_call_role: 'admin',
  });
  const team = { id: t1.id, adminId: Number(admin.id), userId: Number(user.id) };

  return {
    url: server.url,
    db,
    services,
    systemTokens: checks.systemTokens,
    team,
    otherTeam: { id: t2.id, adminId: Number(admin2.id) },
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { accept: JSONAPI, ...options.headers };
      if (options.as !== null) {
        const principal = testPrincipal({ team_id: team.id, user_id: team.adminId, ...options.as });
        headers['x-firewatch-principal'] = await signAsGateway(principal, 'auth', method, path);
      }
      let body: string | undefined = options.raw;
      if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined) headers['content-type'] = options.contentType ?? JSONAPI;
      return reply(await fetch(server.url + path, { method, headers, body }));
    },
    async resolve(token, systemToken) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const sys = systemToken === undefined ? await checks.systemTokens.sign('gateway') : systemToken;
      if (sys !== null) headers.authorization = `Bearer ${sys}`;
      return reply(await fetch(`${server.url}/internal/credentials/resolve`, { method: 'POST', headers, body: JSON.stringify({ token }) }));
    },
    async close() {
      await server.close();
      await db.drop();
    },
  };
}

/** A create document for `/v1/api_keys`. */
export function newKey(attributes: Record<string, unknown>) {
  return { data: { type: 'api_keys', attributes: { name: 'key', kind: 'global', ...attributes } } };
}

/** A group (`/v1/teams`) of the harness's team, by name; its id. */
export async function createGroup(h: Harness, name: string): Promise<string> {
  const res = await h.request('POST', '/v1/teams', { body: { data: { type: 'groups', attributes: { name } } } });
  if (res.status !== 201) throw new Error(`could not create group ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}
