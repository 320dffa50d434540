import type { Knex } from 'knex';

/** One schema change; `down` undoes it. */
export interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Migrations by name; names sort in the order they apply (prefix them with a date). */
export type Migrations = Record<string, Migration>;

function source(migrations: Migrations): Knex.MigrationSource<string> {
  return {
    getMigrations: async () => Object.keys(migrations).sort(),
    getMigrationName: (name) => name,
    getMigration: async (name) => migrations[name] as Knex.Migration,
  };
}

// Any constant works; it only has to be the same for every process of a database.
const MIGRATION_LOCK_KEY = 7_246_001;

/**
 * Applies pending migrations. Safe to run from every replica at start-up: a session
 * advisory lock makes concurrent runs take turns. (knex's own lock row is not enough:
 * two first runs race to create its bookkeeping tables and one fails.)
 */
export async function migrate(knex: Knex, migrations: Migrations): Promise<string[]> {
  const conn = await knex.client.acquireConnection();
  try {
    await knex.raw('SELECT pg_advisory_lock(?)', [MIGRATION_LOCK_KEY]).connection(conn);
    try {
      const [, applied] = await knex.migrate.latest({ migrationSource: source(migrations) });
      return applied as string[];
    } finally {
      await knex.raw('SELECT pg_advisory_unlock(?)', [MIGRATION_LOCK_KEY]).connection(conn);
    }
  } finally {
    await knex.client.releaseConnection(conn);
  }
}
