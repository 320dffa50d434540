import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

// PostgreSQL refused the statement before running it: a pooler that hands each transaction
// another server connection lost it (26000) or shows another client's (42P05), or a
// migration changed what it returns (0A000, "cached plan must not change result type").
const poolerLoss = (code: string) => code === '26000' || code === '42P05';
const stalePlan = (err: { code?: string; message?: string }) => err.code === '0A000' && /cached plan/i.test(err.message ?? '');

/**
 * The intake's insert, which runs for every batch of events, as a named prepared
 * statement, still sent through knex (its pool, query events and errors): PostgreSQL
 * parses and analyses its text once per connection, not on every batch. As libs/db's
 * prepared selects (docs/decisions.md): a name is its text's digest, a stale plan renames
 * them all, a transaction-mode pooler makes the process give preparing up; the refused
 * statement, which PostgreSQL did not run, then runs unprepared. Outside transactions only.
 *
 * Only for statements whose generic plan is good at any table size. Not the claim or a
 * job's record: PostgreSQL takes a prepared statement's generic plan after five runs, and
 * on a new, small deliveries table that was a sequential scan of it (a hash join with the
 * job's rows; the claim's check for leased deliveries), kept while the table grew until
 * the next ANALYZE: the bench's PostgreSQL then spent more a delivery than unprepared.
 */
export function createNamedStatements(knex: Knex) {
  const names = new Map<string, string>();
  let generation = 0;
  let enabled = true;
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) names.set(text, (name = `fw_${createHash('sha256').update(text).digest('hex').slice(0, 32)}_${generation}`));
    return name;
  };
  return async function run<T>(text: string, bindings: readonly Knex.RawBinding[]): Promise<T> {
    if (!enabled) return (await knex.raw(text, bindings)) as T;
    try {
      return (await knex.raw(text, bindings).options({ name: nameOf(text) })) as T;
    } catch (err) {
      const e = err as { code?: string; message?: string };
      if (poolerLoss(e.code ?? '')) enabled = false;
      else if (stalePlan(e)) generation++;
      else throw err;
      names.clear();
      return (await knex.raw(text, bindings)) as T;
    }
  };
}
