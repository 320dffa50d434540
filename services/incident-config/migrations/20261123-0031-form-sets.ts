import type { Knex } from 'knex';

/** Form sets and their conditions (docs/api-contract.md §1); a condition goes with its form set. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('form_sets', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.jsonb('forms').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'slug']);
  });
  await knex.raw('CREATE UNIQUE INDEX form_sets_team_id_name_unique ON form_sets (team_id, lower(name))');

  await knex.schema.createTable('form_set_conditions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.uuid('form_set_id').notNullable().references('id').inTable('form_sets').onDelete('CASCADE');
    t.text('form_field_id').notNullable();
    t.text('comparison').notNullable();
    t.jsonb('values').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'form_set_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('form_set_conditions');
  await knex.schema.dropTable('form_sets');
}
