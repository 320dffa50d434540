import type { Knex } from 'knex';

// Session settings under which the planner can only choose index scans and nested loops
// (a path with nothing else is still taken: a table without an index is still scanned).
const SETTINGS = ['enable_seqscan', 'enable_hashjoin', 'enable_mergejoin'] as const;

/** PostgreSQL's startup `options` that {@link withIndexPlans} adds. */
export const INDEX_PLANS_OPTIONS = SETTINGS.map((s) => `-c ${s}=off`).join(' ');

/**
 * The dispatcher's database URL with PostgreSQL's startup `options` confining its sessions'
 * planner to index scans and nested loops. Every statement the dispatcher runs reads or
 * writes a few rows found by an index, so that is the plan each has at scale anyway; what
 * the settings buy is that a prepared statement's generic plan, made once while the tables
 * are still small and kept while they grow (nothing re-plans it before the next ANALYZE),
 * is that plan too, not the sequential scan or hash join a small table makes cheapest
 * (made on an empty table and run at 100,000 delivered rows: a record 38 ms against 0.7, a
 * claim's check for leased deliveries a 28 ms sequential scan).
 */
export function withIndexPlans(url: string): string {
  const parsed = new URL(url);
  const given = parsed.searchParams.get('options');
  parsed.searchParams.set('options', given ? `${given} ${INDEX_PLANS_OPTIONS}` : INDEX_PLANS_OPTIONS);
  return parsed.toString();
}

/**
 * Whether this knex's sessions plan as {@link withIndexPlans} asks: the claim and a job's
 * record are prepared only then. Asked once (a connection pooler may drop startup options,
 * and then the generic plans would be a small table's again); a failed check is asked again.
 */
export function indexPlansCheck(knex: Knex): () => Promise<boolean> {
  let answer: Promise<boolean> | null = null;
  return () =>
    (answer ??= knex
      .raw(`SELECT ${SETTINGS.map((s) => `current_setting('${s}') = 'off'`).join(' AND ')} AS confined`)
      .then((r: { rows: { confined: boolean }[] }) => r.rows[0]?.confined === true)
      .catch((err: unknown) => {
        answer = null;
        throw err;
      }));
}
