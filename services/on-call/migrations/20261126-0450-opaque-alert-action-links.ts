import type { Knex } from 'knex';

/**
 * Action links (docs/paging.md, "Notifications") become opaque: a 22-character random
 * token, kept here as its SHA-256 with what it does, where a signed JWT of some 300
 * characters made a page's SMS three segments long. Expiry and single use are this row's
 * `expires_at` and `used_at`. Signed links sent before this stop working (they were never
 * released); their uses table goes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('alert_action_links', (t) => {
    t.uuid('id').primary();
    t.binary('token_digest').notNullable().unique();
    t.integer('team_id').notNullable();
    t.uuid('alert_id').notNullable().references('alerts.id').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.text('action').notNullable();
    t.text('attempt_id').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['expires_at']);
    t.index(['alert_id']);
  });
  await knex.schema.dropTable('alert_action_link_uses');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('alert_action_links');
  await knex.schema.createTable('alert_action_link_uses', (t) => {
    t.text('id').primary();
    t.integer('team_id').notNullable();
    t.uuid('alert_id').notNullable().references('alerts.id').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.text('action').notNullable();
    t.text('attempt_id').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['expires_at']);
  });
}
