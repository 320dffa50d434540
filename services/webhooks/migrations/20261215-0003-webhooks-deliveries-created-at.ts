import type { Knex } from 'knex';

// The dispatcher's retention job deletes deliveries by age (WEBHOOK_RETENTION_DAYS);
// without this index each run would scan the whole table.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS webhooks_deliveries_created_at ON webhooks_deliveries (created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS webhooks_deliveries_created_at');
}
