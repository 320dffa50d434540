import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Knex } from 'knex';
import { openDatabase, provisionServiceDatabase, type Migrations } from '../src/index.js';

// Each service connects as its own role, owning only its database (docs/security.md,
// "Between the processes").
const tag = randomBytes(4).toString('hex');
const admin = process.env.TEST_DATABASE_URL!;
const a = { database: `fw_prov_a_${tag}`, role: `fw_prov_a_${tag}`, password: randomBytes(12).toString('hex') };
const b = { database: `fw_prov_b_${tag}`, role: `fw_prov_b_${tag}`, password: randomBytes(12).toString('hex') };
const c = { database: `fw_prov_c_${tag}`, role: `fw_prov_c_${tag}`, password: randomBytes(12).toString('hex') };
// Managed PostgreSQL's administrator: CREATEROLE and CREATEDB, never a superuser.
const managed = { role: `fw_prov_admin_${tag}`, password: randomBytes(12).toString('hex') };

function urlAs(who: { role: string; password: string }, database: string): string {
  const u = new URL(admin);
  u.username = who.role;
  u.password = who.password;
  u.pathname = `/${database}`;
  return u.toString();
}

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

const migrations: Migrations = {
  '20260101-0001-things': {
    up: (knex: Knex) =>
      knex.schema.createTable('things', (t) => {
        t.increments('id');
        t.text('name');
      }),
    down: (knex: Knex) => knex.schema.dropTable('things'),
  },
};

afterAll(async () => {
  for (const t of [a, b, c]) {
    await query(admin, `DROP DATABASE IF EXISTS "${t.database}" WITH (FORCE)`);
    await query(admin, `DROP ROLE IF EXISTS "${t.role}"`);
  }
  await query(admin, `DROP ROLE IF EXISTS "${managed.role}"`);
});

describe('provisionServiceDatabase', () => {
  it('gives a service a plain role that owns its database and can migrate it', async () => {
    expect(await provisionServiceDatabase(admin, a)).toEqual({ skipped: [] });
    const knex = await openDatabase({ url: urlAs(a, a.database), migrations });
    try {
      await knex('things').insert({ name: 'x' });
      expect(await knex('things').count({ n: '*' })).toEqual([{ n: 1 }]);
    } finally {
      await knex.destroy();
    }
    const { rows } = await query(admin, `SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = '${a.role}'`);
    expect(rows).toEqual([{ rolsuper: false, rolcreatedb: false, rolcreaterole: false }]);
  });

  it("keeps every other role out of a service's database", async () => {
    await provisionServiceDatabase(admin, b);
    await expect(query(urlAs(a, b.database), 'SELECT 1')).rejects.toMatchObject({ code: '42501' });
    await expect(query(urlAs(b, a.database), 'SELECT 1')).rejects.toMatchObject({ code: '42501' });
    await expect(query(urlAs(b, b.database), 'SELECT 1 AS ok')).resolves.toMatchObject({ rows: [{ ok: 1 }] });
  });

  it('is idempotent, and hands over tables an earlier install made as the admin', async () => {
    await query(
      urlAs({ role: new URL(admin).username, password: decodeURIComponent(new URL(admin).password) }, b.database),
      'CREATE TABLE legacy (id serial primary key)',
    );
    await provisionServiceDatabase(admin, b);
    await provisionServiceDatabase(admin, b);
    await expect(query(urlAs(b, b.database), 'INSERT INTO legacy DEFAULT VALUES')).resolves.toBeDefined();
  });

  it('refuses names that would need quoting', async () => {
    await expect(provisionServiceDatabase(admin, { ...a, role: 'x"; DROP ROLE postgres; --' })).rejects.toThrow(/Unusual/);
  });

  it('works as a managed database administrator (CREATEROLE, CREATEDB, no superuser), saying what it left to checks', async () => {
    await query(admin, `CREATE ROLE "${managed.role}" LOGIN CREATEROLE CREATEDB PASSWORD '${managed.password}'`);
    const asManaged = urlAs(managed, 'postgres');
    const report = await provisionServiceDatabase(asManaged, c);
    expect(report.skipped).toEqual([expect.stringMatching(/SUPERUSER, REPLICATION and BYPASSRLS attributes are checked, not set/)]);
    await expect(provisionServiceDatabase(asManaged, c)).resolves.toEqual(report);

    const knex = await openDatabase({ url: urlAs(c, c.database), migrations });
    await knex.destroy();
    const { rows } = await query(admin, `SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = '${c.database}'`);
    expect(rows).toEqual([{ owner: c.role }]);
    await expect(query(urlAs(a, c.database), 'SELECT 1')).rejects.toMatchObject({ code: '42501' });
  });

  it('refuses, as a managed administrator, a role it may not make plain', async () => {
    await query(admin, `ALTER ROLE "${c.role}" CREATEDB`);
    await expect(provisionServiceDatabase(urlAs(managed, 'postgres'), c)).rejects.toThrow(/must have none/);
    await query(admin, `ALTER ROLE "${c.role}" NOCREATEDB`);
  });

  it('names what an administrator without CREATEROLE must create first', async () => {
    await expect(provisionServiceDatabase(urlAs(c, 'postgres'), { ...c, role: `${c.role}_x` })).rejects.toThrow(/may not create roles/);
  });
});
