import type { Knex } from 'knex';

/**
 * Who created each override shift: the reference's shift_override (GET /v1/shifts'
 * `include=shift_override`) names `created_by_user_id`. Null for overrides created by a
 * key that acts for no user, and for those created before this column existed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('override_shifts', (t) => {
    t.integer('created_by_user_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('override_shifts', (t) => {
    t.dropColumn('created_by_user_id');
  });
}
