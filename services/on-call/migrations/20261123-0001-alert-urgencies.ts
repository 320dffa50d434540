import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pgcrypto');
  await knex.schema.createTable('alert_urgencies', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.integer('position').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'position']);
  });
  // "High" and "high" would be one urgency to a person choosing it in a condition.
  await knex.raw('CREATE UNIQUE INDEX alert_urgencies_team_id_name_unique ON alert_urgencies (team_id, lower(name))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('alert_urgencies');
}
