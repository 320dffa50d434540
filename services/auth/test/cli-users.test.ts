import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';

// The compiled CLI, as operators run it: build first (`tsc -b services/auth`).
const CLI = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));

let db: TestDatabase;

function cli(...args: string[]): Promise<{ code: number; stderr: string; json: any }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: db.url } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr, json: stdout ? JSON.parse(stdout) : undefined });
    });
  });
}

const userEvents = async () => (await db.knex('outbox').where('type', 'like', 'user.%').orderBy('seq')).map((r) => r.payload);

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run ./node_modules/.bin/tsc -b services/auth first`);
  db = await createTestDatabase('fw_auth_cli_users');
});
afterAll(async () => {
  await db?.drop();
});

describe('firewatch users update|delete|announce', () => {
  it('emit their events; mistakes exit non-zero and emit none', async () => {
    const boot = await cli('bootstrap', '--team-name', 'Acme', '--email', 'ops@acme.test', '--name', 'Ops');
    const teamId = String(boot.json.team.id);
    const dev = await cli(
      'users',
      'create',
      '--team-id',
      teamId,
      '--email',
      'dev@acme.test',
      '--name',
      'Dev',
      '--time-zone',
      'europe/berlin',
    );
    expect(dev.json).toMatchObject({ first_name: 'Dev', last_name: null, full_name: 'Dev', time_zone: 'Europe/Berlin' });
    const id = String(dev.json.id);

    const renamed = await cli('users', 'update', '--team-id', teamId, '--id', id, '--name', 'Dev Two', '--on-call-role', 'admin');
    expect(renamed.code).toBe(0);
    expect(renamed.json).toMatchObject({ id: dev.json.id, name: 'Dev Two', first_name: 'Dev', last_name: 'Two', on_call_role: 'admin' });
    const before = (await userEvents()).length;
    expect((await cli('users', 'update', '--team-id', teamId, '--id', id, '--role', 'root')).code).toBe(1);
    expect((await cli('users', 'update', '--team-id', teamId, '--id', id, '--time-zone', 'Mars/Olympus')).code).toBe(1);
    expect((await cli('users', 'update', '--team-id', teamId, '--id', '999999', '--name', 'x')).code).toBe(1);
    expect((await cli('users', 'delete', '--team-id', String(boot.json.team.id + 1), '--id', id)).code).toBe(1);
    expect((await cli('users', 'update', '--team-id', teamId, '--id', id)).code).toBe(1);
    expect(await userEvents()).toHaveLength(before);

    expect((await cli('users', 'delete', '--team-id', teamId, '--id', id)).json).toMatchObject({ id: dev.json.id, name: 'Dev Two' });
    expect((await cli('users', 'list', '--team-id', teamId)).json.map((u: { id: number }) => u.id)).toEqual([boot.json.user.id]);
    expect(await cli('users', 'announce', '--team-id', teamId)).toMatchObject({ code: 0, json: { announced: 1 } });

    const events = await userEvents();
    expect(events.map((e) => `${e.type} ${e.data.id} v${e.data.meta.version}`)).toEqual([
      `user.created ${boot.json.user.id} v1`,
      `user.created ${id} v1`,
      `user.updated ${id} v2`,
      `user.deleted ${id} v3`,
      `user.updated ${boot.json.user.id} v1`,
    ]);
    // A dozen processes, each starting Node: more than Jest's default 30 s on a loaded machine.
  }, 120_000);
});
