import type { Knex } from 'knex';

/**
 * Signed action links (docs/paging.md, "Notifications") work once: the id of each link
 * used is kept here, written in the transaction of the action it performed. A row outlives
 * its link's expiry only until the link could no longer verify anyway.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('alert_action_link_uses', (t) => {
    // The link token's jti (128 random bits, base64url).
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

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('alert_action_link_uses');
}
