import type { Knex } from 'knex';

/**
 * An alert's deduplication scope is where it came from, kept when its source is deleted:
 * with the source id alone (nulled by the foreign key) a deleted source's unresolved
 * alerts would fall into the API's scope, and the delete would collide with an API alert
 * of the same key.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE alerts ADD COLUMN deduplication_scope text`);
  await knex.raw(`UPDATE alerts SET deduplication_scope = coalesce(alert_source_id::text, 'api')`);
  await knex.raw(`ALTER TABLE alerts ALTER COLUMN deduplication_scope SET NOT NULL`);
  await knex.raw(`DROP INDEX alerts_open_deduplication_key_unique`);
  await knex.raw(
    `CREATE UNIQUE INDEX alerts_open_deduplication_key_unique ON alerts (team_id, deduplication_scope, deduplication_key)
     WHERE deduplication_key IS NOT NULL AND status <> 'resolved'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX alerts_open_deduplication_key_unique`);
  await knex.raw(
    `CREATE UNIQUE INDEX alerts_open_deduplication_key_unique ON alerts (team_id, (coalesce(alert_source_id::text, '')), deduplication_key)
     WHERE deduplication_key IS NOT NULL AND status <> 'resolved'`,
  );
  await knex.raw(`ALTER TABLE alerts DROP COLUMN deduplication_scope`);
}
