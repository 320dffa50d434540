import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pgcrypto');
  await knex.schema.createTable('environments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.text('description');
    t.text('color');
    t.integer('position');
    t.text('external_id');
    t.jsonb('notify_emails').notNullable().defaultTo('[]');
    t.jsonb('chat_channels').notNullable().defaultTo('[]');
    t.jsonb('chat_aliases').notNullable().defaultTo('[]');
    t.jsonb('properties').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'slug']);
    t.index(['team_id', 'position']);
  });
  // Names are unique per team regardless of case: "Production" and "production" are one environment.
  await knex.raw('CREATE UNIQUE INDEX environments_team_id_name_unique ON environments (team_id, lower(name))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('environments');
}
