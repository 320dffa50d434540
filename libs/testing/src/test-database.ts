import { randomBytes } from 'node:crypto';
import knex, { type Knex } from 'knex';
import pg from 'pg';

export interface TestDatabase {
  url: string;
  knex: Knex;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

function adminUrl(): string {
  const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set: run the tests through the Jest config (its global setup finds PostgreSQL).');
  return base;
}

/** A new, empty database on the test PostgreSQL server, unique to the calling suite. */
export async function createTestDatabase(prefix = 'fw_test'): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  const db = knex({ client: 'pg', connection: url.toString(), pool: { min: 0, max: 5 } });
  return {
    url: url.toString(),
    knex: db,
    async drop() {
      await db.destroy();
      const c = new pg.Client({ connectionString: adminUrl() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
