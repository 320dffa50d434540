import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('incident_roles', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.text('summary');
    t.text('description');
    t.integer('position');
    t.boolean('optional').notNullable().defaultTo(false);
    t.boolean('enabled').notNullable().defaultTo(true);
    t.boolean('allow_multi_user_assignment').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'slug']);
    t.index(['team_id', 'position']);
  });
  // One "Commander" per team, whatever the case.
  await knex.raw('CREATE UNIQUE INDEX incident_roles_team_id_name_unique ON incident_roles (team_id, lower(name))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('incident_roles');
}
