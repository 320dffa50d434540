import type { Knex } from 'knex';

/**
 * Alerts in (issue 23): alert sources with their hashed ingestion secret and last error,
 * alerts, and their events (the timeline). The partial unique index on an unresolved
 * alert's deduplication key (per team and source) is what makes two racing ingests of one
 * key end as one alert: the second waits on the first's insert and then finds it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('alert_sources', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('source_type').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.uuid('alert_urgency_id');
    t.boolean('deduplicate_alerts_by_key').notNullable().defaultTo(false);
    t.text('deduplication_key_kind').notNullable().defaultTo('payload');
    t.text('deduplication_key_path');
    t.text('deduplication_key_regexp');
    t.jsonb('owner_group_ids').notNullable().defaultTo('[]');
    t.jsonb('alert_template_attributes');
    t.jsonb('sourceable_attributes');
    // SHA-256 of the secret: enough to check it, useless to present it.
    t.binary('secret_hash').notNullable();
    t.text('secret_hint').notNullable();
    t.timestamp('last_received_at', { useTz: true });
    t.timestamp('last_error_at', { useTz: true });
    t.text('last_error_message');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'created_at']);
  });

  await knex.raw('CREATE SEQUENCE alerts_short_id_seq');
  await knex.schema.createTable('alerts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('short_id').notNullable().unique();
    t.uuid('alert_source_id').references('alert_sources.id').onDelete('SET NULL');
    t.text('source').notNullable();
    t.text('status').notNullable();
    t.text('summary').notNullable();
    t.text('description');
    t.text('noise');
    t.text('external_id');
    t.text('external_url');
    t.uuid('alert_urgency_id');
    t.jsonb('service_ids').notNullable().defaultTo('[]');
    t.jsonb('group_ids').notNullable().defaultTo('[]');
    t.jsonb('functionality_ids').notNullable().defaultTo('[]');
    t.jsonb('environment_ids').notNullable().defaultTo('[]');
    t.jsonb('labels').notNullable().defaultTo('[]');
    t.jsonb('data');
    t.text('notification_target_type');
    t.text('notification_target_id');
    t.text('deduplication_key');
    t.integer('received_count').notNullable().defaultTo(1);
    t.timestamp('started_at', { useTz: true });
    t.timestamp('ended_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'created_at']);
    t.index(['team_id', 'status', 'created_at']);
  });
  await knex.raw(
    `CREATE UNIQUE INDEX alerts_open_deduplication_key_unique ON alerts (team_id, (coalesce(alert_source_id::text, '')), deduplication_key)
     WHERE deduplication_key IS NOT NULL AND status <> 'resolved'`,
  );

  await knex.schema.createTable('alert_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.uuid('alert_id').notNullable().references('alerts.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('action').notNullable();
    t.text('source').notNullable();
    t.integer('user_id');
    t.text('details');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['alert_id', 'created_at']);
    t.index(['team_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('alert_events');
  await knex.schema.dropTable('alerts');
  await knex.raw('DROP SEQUENCE alerts_short_id_seq');
  await knex.schema.dropTable('alert_sources');
}
