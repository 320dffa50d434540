import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('alert_groups', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.text('description');
    t.text('condition_type').notNullable();
    t.integer('time_window').notNullable();
    // Other services' records (services, groups, escalation policies): ids only, see docs/on-call.md.
    t.jsonb('targets').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'slug']);
    t.index(['team_id', 'created_at']);
  });
  await knex.raw('CREATE UNIQUE INDEX alert_groups_team_id_name_unique ON alert_groups (team_id, lower(name))');

  // The legacy group_by_* flags and attributes are conditions too (matches_existing_alert), not columns.
  await knex.schema.createTable('alert_group_conditions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('alert_group_id').notNullable().references('id').inTable('alert_groups').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('property_field_type').notNullable();
    t.text('property_field_name');
    t.text('property_field_condition_type').notNullable();
    t.text('property_field_value');
    t.jsonb('property_field_values').notNullable().defaultTo('[]');
    t.jsonb('alert_urgency_ids');
    t.text('conditionable_type');
    t.text('conditionable_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['alert_group_id', 'position']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('alert_group_conditions');
  await knex.schema.dropTable('alert_groups');
}
