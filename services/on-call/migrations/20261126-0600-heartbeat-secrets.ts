import type { Knex } from 'knex';

/**
 * Heartbeats' own ping secrets (issue 23): cron jobs ping `/ingest/heartbeats/{id}` with
 * the heartbeat's secret, stored as its SHA-256 as alert sources' are. Heartbeats made
 * before this have none (null: nobody could be shown it) until `rotate_secret` gives one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('heartbeats', (t) => {
    t.binary('secret_hash');
    t.text('secret_hint');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('heartbeats', (t) => {
    t.dropColumn('secret_hash');
    t.dropColumn('secret_hint');
  });
}
