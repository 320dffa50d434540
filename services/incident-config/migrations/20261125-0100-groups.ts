import type { Knex } from 'knex';

/**
 * The teams (the reference's groups) of each tenant, as auth's `group.*` events tell them:
 * a read model owner_group_ids and retrospective criteria are checked against. One row
 * per team, never removed: a deletion leaves a tombstone (`deleted_at`) that a late
 * creation or update does not revive. `updated_at` is auth's, and with `occurred_at` it
 * orders the events of one team (the newest wins).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('groups', (t) => {
    t.integer('team_id').notNullable();
    t.uuid('id').notNullable();
    t.text('name').notNullable();
    t.text('slug');
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.timestamp('deleted_at', { useTz: true });
    t.primary(['team_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('groups');
}
