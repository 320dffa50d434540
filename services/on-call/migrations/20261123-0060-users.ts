import type { Knex } from 'knex';

/**
 * on-call's read model of auth's users, fed by `user.*` events (docs/decisions.md):
 * services never read each other's tables. `version` is auth's counter of the user's
 * changes; an event is applied only when it is newer, so duplicates and late deliveries
 * change nothing. A deleted user stays as a tombstone (`deleted_at`), which keeps older
 * events from bringing it back and lets past shifts still name it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    // auth's users.id: unique across teams.
    t.integer('user_id').primary();
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('email').notNullable();
    t.text('role').notNullable();
    t.text('on_call_role').notNullable();
    t.boolean('is_service_account').notNullable().defaultTo(false);
    t.integer('version').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.timestamp('deleted_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}
