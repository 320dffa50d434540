import type { Knex } from 'knex';

/**
 * A source's own ingestion rate limit (issue 23): payloads per minute the gateway admits
 * for it; null is the deployment's default (RATE_LIMIT_INGEST).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alert_sources', (t) => {
    t.integer('rate_limit_per_minute');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alert_sources', (t) => {
    t.dropColumn('rate_limit_per_minute');
  });
}
