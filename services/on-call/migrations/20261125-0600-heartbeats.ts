import type { Knex } from 'knex';

/**
 * Heartbeats (issue 23): `expires_at` is the durable timer the expiry job claims
 * (FOR UPDATE SKIP LOCKED on the partial index of enabled, not yet expired rows), so an
 * expiry fires once with several replicas and, after downtime, at start.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('heartbeats', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('description');
    t.text('alert_summary').notNullable();
    t.text('alert_description');
    t.uuid('alert_urgency_id');
    t.integer('interval').notNullable();
    t.text('interval_unit').notNullable();
    t.text('notification_target_type').notNullable();
    t.text('notification_target_id').notNullable();
    t.jsonb('owner_group_ids').notNullable().defaultTo('[]');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('status').notNullable().defaultTo('waiting');
    t.timestamp('last_pinged_at', { useTz: true });
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'created_at']);
  });
  await knex.raw(`CREATE INDEX heartbeats_due ON heartbeats (expires_at) WHERE enabled AND status = 'active'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('heartbeats');
}
