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

/**
 * Applies pending migrations. Safe to run from every replica at start-up: knex takes
 * a lock row, so concurrent runs wait rather than apply twice.
 */
export async function migrate(knex: Knex, migrations: Migrations): Promise<string[]> {
  const [, applied] = await knex.migrate.latest({ migrationSource: source(migrations) });
  return applied as string[];
}

/** Undoes every applied migration (tests and the CLI's reset). */
export async function rollbackAll(knex: Knex, migrations: Migrations): Promise<void> {
  await knex.migrate.rollback({ migrationSource: source(migrations) }, true);
}
