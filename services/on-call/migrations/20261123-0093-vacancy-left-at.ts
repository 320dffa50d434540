import type { Knex } from 'knex';

/**
 * When a vacancy's member left (its user deleted): the slot keeps the turns that began
 * before, and later turns go to the members left (docs/on-call.md). Existing rows were
 * inserted when the deletion was applied, so their created_at is that instant.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('schedule_rotation_vacancies', (t) => {
    t.timestamp('left_at', { useTz: true }).nullable();
  });
  await knex('schedule_rotation_vacancies').update({ left_at: knex.ref('created_at') });
  await knex.schema.alterTable('schedule_rotation_vacancies', (t) => {
    t.timestamp('left_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).alter();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('schedule_rotation_vacancies', (t) => {
    t.dropColumn('left_at');
  });
}
