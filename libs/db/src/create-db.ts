import knex, { type Knex } from 'knex';
import pg from 'pg';

export type Db = Knex;

export interface DbOptions {
  poolMin?: number;
  poolMax?: number;
  /** Per-statement timeout, so one slow query cannot hold a connection forever. */
  statementTimeoutMs?: number;
}

// Return BIGINT counts as numbers and keep DATE columns as strings: the API serialises
// both as the database holds them, and JS Date on a DATE column shifts by time zone.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

/** A knex instance on PostgreSQL with a bounded pool. */
export function createDb(connectionString: string, options: DbOptions = {}): Db {
  return knex({
    client: 'pg',
    connection: {
      connectionString,
      statement_timeout: options.statementTimeoutMs ?? 15_000,
      application_name: process.env.SERVICE_NAME ?? 'firewatch',
    },
    pool: { min: options.poolMin ?? 0, max: options.poolMax ?? 10 },
    acquireConnectionTimeout: 10_000,
  });
}
