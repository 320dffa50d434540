import type { Knex } from 'knex';

/**
 * The deduplication key's lock-and-read function plans each call for its arguments and the
 * table as it is now. PL/pgSQL otherwise keeps a generic plan per connection, made once on a table that
 * may have been nearly empty and kept until the table is next analyzed: between
 * `alerts_list_order_index` (team_id first) and the deduplication key index,
 * both costed at one row then, it kept the list index, and every lookup then filtered the
 * team's alerts one by one (bench:alerts with 10 000 open alerts took 120–200 alerts/s
 * against 370–460 on an empty team). A table that is never analyzed (autovacuum off, as on
 * the CI machines) keeps such a plan for ever. Planning the query costs ~70 µs a call
 * (pgbench, 10 000 alerts: 0.20 against 0.13 ms), far less than one walk of a team's alerts.
 * Not the group leaders' function: without statistics its custom plan chose as badly
 * (between two partial indexes of one predicate), and once the table is analyzed, which
 * invalidates the cached plans, its generic plan is the right one.
 */
const FUNCTIONS = ['firewatch_lock_open_alert(text, integer, text, text)'];

export async function up(knex: Knex): Promise<void> {
  for (const fn of FUNCTIONS) await knex.raw(`ALTER FUNCTION ${fn} SET plan_cache_mode = force_custom_plan`);
}

export async function down(knex: Knex): Promise<void> {
  for (const fn of FUNCTIONS) await knex.raw(`ALTER FUNCTION ${fn} RESET plan_cache_mode`);
}
