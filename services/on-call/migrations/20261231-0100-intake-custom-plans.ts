import type { Knex } from 'knex';

/**
 * The intake's lock-and-read functions plan each call for its arguments and the table as it
 * is now. PL/pgSQL otherwise keeps a generic plan per connection, made once on a table that
 * may have been nearly empty and kept until the table is next analyzed: between
 * `alerts_list_order_index` (team_id first) and the deduplication or group-leader index,
 * both costed at one row then, it kept the list index, and every lookup then filtered the
 * team's alerts one by one (bench:alerts with 10 000 open alerts took 120–200 alerts/s
 * against 370–460 on an empty team). A table that is never analyzed (autovacuum off, as on
 * the CI machines) keeps such a plan for ever. Planning these small queries costs less than
 * one scan of a team's alerts.
 */
const FUNCTIONS = [
  'firewatch_lock_open_alert(text, integer, text, text)',
  'firewatch_lock_group_leaders(text, integer, uuid, timestamptz, text)',
];

export async function up(knex: Knex): Promise<void> {
  for (const fn of FUNCTIONS) await knex.raw(`ALTER FUNCTION ${fn} SET plan_cache_mode = force_custom_plan`);
}

export async function down(knex: Knex): Promise<void> {
  for (const fn of FUNCTIONS) await knex.raw(`ALTER FUNCTION ${fn} RESET plan_cache_mode`);
}
