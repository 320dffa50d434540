import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { executePrepared, type PreparedClient } from './prepared-execution.js';
import { acquirePooled, type PoolClient } from './pooled-connection.js';

/** Bindings a caller may promise to be a statement's whole input: none changes the SQL text. */
export type PlainBinding = string | number | boolean;

interface Statement {
  /** The compiled SQL in PostgreSQL's notation ($1, $2, ...). */
  text: string;
  name: string;
}

// PostgreSQL refuses to run a prepared `select *` whose columns changed under it (a
// migration by another replica): SQLSTATE 0A000 "cached plan must not change result type".
const isStalePlan = (err: unknown) =>
  (err as { code?: string } | null)?.code === '0A000' && /cached plan/i.test(String((err as Error).message));

// A pooler between us and PostgreSQL that hands each transaction another server
// connection (PgBouncer in transaction mode without prepared-statement support) loses
// statements (26000) or shows those of other clients (42P05): preparing is then given up.
const isPoolerLoss = (err: unknown) => ['26000', '42P05'].includes((err as { code?: string } | null)?.code ?? '');

// A name is its SQL's digest: one name means one SQL text in every process, so replicas
// sharing server connections (through a pooler) never run each other's statement under
// it. A replaced (stale) statement gets a new generation in its name.
let generation = 0;
const nameOf = (text: string) => `fw_${createHash('sha256').update(text).digest('hex').slice(0, 32)}_${generation}`;

/**
 * Runs fixed-shape selects as named prepared statements: knex builds and compiles the
 * query once per `key`, and every later call sends only the bindings on a connection
 * of knex's pool, so neither our process (query building) nor PostgreSQL (parse and
 * plan) repeats that work.
 *
 * The caller promises that `key` determines the SQL text and that `bindings` are the
 * compiled query's bindings in order; the first compile checks the second promise and
 * a key that breaks it is never prepared. Statements are per connection on the server,
 * so their number is capped (`max` keys); further keys run as ordinary queries.
 * Every failure that is the statement's, not the query's, runs the query unprepared.
 */
export function createPreparedSelects(options: { max?: number } = {}) {
  const max = options.max ?? 500;
  const statements = new Map<string, Statement | null>();
  let enabled = true;

  function prepare(key: string, bindings: readonly PlainBinding[], build: () => Knex.QueryBuilder): Statement | null {
    const compiled = build().toSQL();
    const matches = compiled.bindings.length === bindings.length && compiled.bindings.every((b, i) => b === bindings[i]);
    const text = compiled.toNative().sql;
    const statement = matches ? { text, name: nameOf(text) } : null;
    statements.set(key, statement);
    return statement;
  }

  return {
    /** The rows of `build()`'s select, run as the prepared statement `key` names. */
    async rows<T>(knex: Knex, key: string, bindings: readonly PlainBinding[], build: () => Knex.QueryBuilder): Promise<T[]> {
      // A transaction's connection is knex's to manage; only the pool's are used here.
      if ((knex as { isTransaction?: boolean }).isTransaction) return (await build()) as T[];
      let statement = enabled ? statements.get(key) : null;
      if (statement === undefined) statement = statements.size < max ? prepare(key, bindings, build) : null;
      if (statement === null) return (await build()) as T[];
      // Straight on a pooled connection: knex's runner would add a fifth of a lookup's cost.
      // knex's pool, which the statements share with every other query of the service.
      const client = knex.client as PoolClient<PreparedClient>;
      const connection = await acquirePooled(client);
      let failure: unknown;
      try {
        return (await executePrepared(connection, statement.name, statement.text, bindings)) as T[];
      } catch (err) {
        failure = err;
      } finally {
        // knex releases at once (its promise is already settled): waiting on it costs a tick a lookup.
        void client.releaseConnection(connection);
      }
      if (isPoolerLoss(failure)) enabled = false;
      else if (isStalePlan(failure)) generation++;
      else throw failure;
      // Prepared again, under new names, by the next calls (unless given up); this one runs unprepared.
      statements.clear();
      return (await build()) as T[];
    },
  };
}

export type PreparedSelects = ReturnType<typeof createPreparedSelects>;
