import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@firewatch/logger';
import { createTestDatabase, listen, type Listening, type TestDatabase } from '@firewatch/testing';
import { createAuthApp } from '../src/app.js';
import { createServices } from '../src/create-services.js';
import { callerChecks } from './support/harness.js';

// The compiled CLI, as operators run it: build first (`tsc -b services/auth`).
const CLI = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

let db: TestDatabase;
let server: Listening;
const checks = callerChecks();

function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: db.url } }, (err, stdout, stderr) => {
      const code = err ? Number((err as { code?: number }).code ?? 1) : 0;
      let json: unknown;
      try {
        json = stdout ? JSON.parse(stdout) : undefined;
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

async function resolveToken(token: string) {
  const res = await fetch(`${server.url}/internal/credentials/resolve`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await checks.systemTokens.sign('gateway')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run ./node_modules/.bin/tsc -b services/auth first`);
  db = await createTestDatabase('fw_auth_cli');
  const logger = createLogger({ service: 'auth-test', level: 'silent' });
  server = await listen(createAuthApp({ services: createServices({ knex: db.knex, logger }), knex: db.knex, ...checks, logger }));
});
afterAll(async () => {
  await server.close();
  await db.drop();
});

describe('firewatch CLI', () => {
  let teamId: number;
  let adminToken: string;

  it('bootstraps a team, its admin and a global admin key whose token resolves', async () => {
    const run = await cli(
      'bootstrap',
      '--team-name',
      'Acme',
      '--email',
      'Ops@Acme.test',
      '--name',
      'Ops',
      '--password',
      'correct horse battery',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { team, user, api_key } = run.json;
    expect(team).toMatchObject({ id: expect.any(Number), name: 'Acme' });
    expect(user).toMatchObject({ id: expect.any(Number), email: 'ops@acme.test', role: 'admin', on_call_role: 'admin', team_id: team.id });
    expect(api_key).toMatchObject({
      id: expect.any(String),
      kind: 'global',
      role: 'admin',
      on_call_role: 'admin',
      capabilities: ['read', 'create', 'update', 'delete'],
    });
    expect(api_key.token).toMatch(/^fwk_/);
    teamId = team.id;
    adminToken = api_key.token;

    const resolved = await resolveToken(adminToken);
    expect(resolved.status).toBe(200);
    expect(resolved.body.principal).toMatchObject({ team_id: team.id, user_id: null, role: 'admin', credential: { id: api_key.id } });
    const stored = await db.knex('users').where({ id: user.id }).first();
    expect(stored.password_hash).toMatch(/^scrypt\$/);
  });

  it('manages teams and users', async () => {
    const team = await cli('teams', 'create', '--name', 'Beta');
    expect(team.code).toBe(0);
    expect((await cli('teams', 'list')).json.map((t: { name: string }) => t.name)).toEqual(['Acme', 'Beta']);
    const user = await cli(
      'users',
      'create',
      '--team-id',
      String(teamId),
      '--email',
      'dev@acme.test',
      '--name',
      'Dev',
      '--role',
      'observer',
    );
    expect(user.json).toMatchObject({ email: 'dev@acme.test', role: 'observer', on_call_role: 'user' });
    const dup = await cli('users', 'create', '--team-id', String(teamId), '--email', 'DEV@acme.test', '--name', 'Dev');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/already exists/);
    expect(dup.stdout).toBe('');
    expect((await cli('users', 'list', '--team-id', String(teamId))).json).toHaveLength(2);
  });

  it('creates keys with rate limits, changes limits, and revokes', async () => {
    const run = await cli(
      'api-keys',
      'create',
      '--team-id',
      String(teamId),
      '--name',
      'partner',
      '--kind',
      'record',
      '--record-ids',
      'r1,r2',
      '--capabilities',
      'read',
      '--rate-limit-read',
      '100',
      '--rate-limit-write',
      '10',
    );
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({
      kind: 'record',
      record_ids: ['r1', 'r2'],
      capabilities: ['read'],
      rate_limit_read: 100,
      rate_limit_write: 10,
    });
    let resolved = await resolveToken(run.json.token);
    expect(resolved.body.rate_limits).toEqual({ read: 100, write: 10 });

    const limits = await cli('api-keys', 'set-limits', run.json.id, '--read', '500', '--write', 'default');
    expect(limits.json).toMatchObject({ rate_limit_read: 500, rate_limit_write: null });
    resolved = await resolveToken(run.json.token);
    expect(resolved.body.rate_limits).toEqual({ read: 500, write: null });

    const list = await cli('api-keys', 'list', '--team-id', String(teamId));
    expect(list.json.map((k: { name: string }) => k.name)).toEqual(['Bootstrap admin key', 'partner']);
    expect(list.stdout).not.toContain('token');

    expect((await cli('api-keys', 'revoke', run.json.id)).code).toBe(0);
    expect((await resolveToken(run.json.token)).status).toBe(401);
    const again = await cli('api-keys', 'revoke', run.json.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/No live API key/);
  });

  it('reports validation errors on stderr with exit 1', async () => {
    const run = await cli('api-keys', 'create', '--team-id', String(teamId), '--name', 'g', '--kind', 'group');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/group_ids is required/);
    expect((await cli('api-keys', 'create', '--team-id', '999', '--name', 'x')).code).toBe(1);
  });

  it('exits 2 on usage errors', async () => {
    for (const args of [
      ['frobnicate'],
      ['users', 'create', '--team-id', 'abc'],
      ['teams', 'create', '--nope', 'x'],
      ['api-keys', 'revoke'],
    ]) {
      const run = await cli(...args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/firewatch help/);
    }
  });

  it('migrates idempotently and prints help', async () => {
    expect((await cli('migrate')).json).toEqual({ applied: [] });
    const help = await cli('help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('firewatch api-keys set-limits');
  });
});
