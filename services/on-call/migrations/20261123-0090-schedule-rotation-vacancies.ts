import type { Knex } from 'knex';

/**
 * The turn slots of members who left a rotation because auth deleted their user (issue 12:
 * "leaves the rotations it was in, and the shifts say so"). The membership row is deleted
 * (with its schedule_rotation_user.deleted event), but its place in the turn order stays
 * here, so the other members' turns, past and future, do not move; the slot's turns still
 * name the deleted user, whom the shifts' `user` include shows as `deleted: true`. The id
 * is the former membership's; position and member_created_at order it among the members.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('schedule_rotation_vacancies', (t) => {
    t.uuid('id').primary();
    t.integer('team_id').notNullable();
    t.uuid('schedule_rotation_id').notNullable().references('id').inTable('schedule_rotations').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.integer('position').notNullable();
    t.timestamp('member_created_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['schedule_rotation_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('schedule_rotation_vacancies');
}
