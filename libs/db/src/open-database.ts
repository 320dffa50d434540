import { createDb, type Db } from './create-db.js';
import { ensureDatabase } from './ensure-database.js';
import { migrate, type Migrations } from './migrate.js';

export interface OpenDatabaseOptions {
  url: string;
  migrations: Migrations;
  poolMax?: number;
  logger?: { info(message: string, meta?: Record<string, unknown>): void };
}

/**
 * A service's start-up step for its own database: create it when missing, open a
 * pool, apply pending migrations (safe from every replica at once).
 */
export async function openDatabase({ url, migrations, poolMax, logger }: OpenDatabaseOptions): Promise<Db> {
  await ensureDatabase(url);
  const knex = createDb(url, { poolMax });
  try {
    const applied = await migrate(knex, migrations);
    if (applied.length) logger?.info('migrations applied', { applied });
  } catch (err) {
    await knex.destroy();
    throw err;
  }
  return knex;
}
