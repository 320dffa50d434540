import type { Knex } from 'knex';

/**
 * Alert routing (issue 24; docs/paging.md, "Alert routing"): alert routes with their
 * rules as child rows (a rule's destinations and condition groups are JSON: they are
 * written and read only with their rule), and the legacy alert routing rules with their
 * conditions. Source ids are not foreign keys: a deleted source leaves routes naming it,
 * which routing never reaches, as alert groups' targets do.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('alert_routes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.jsonb('alerts_source_ids').notNullable().defaultTo('[]');
    t.jsonb('owning_team_ids').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'slug']);
    t.index(['team_id', 'created_at']);
  });
  await knex.schema.createTable('alert_route_rules', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('alert_route_id').notNullable().references('id').inTable('alert_routes').onDelete('CASCADE');
    t.text('name').notNullable();
    t.integer('position').notNullable();
    t.boolean('fallback_rule').notNullable().defaultTo(false);
    t.jsonb('destinations').notNullable().defaultTo('[]');
    t.jsonb('condition_groups').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['alert_route_id', 'position']);
  });
  await knex.schema.createTable('alert_routing_rules', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.uuid('alerts_source_id').notNullable();
    t.integer('position').notNullable();
    t.text('condition_type').notNullable();
    t.jsonb('destination').notNullable();
    t.jsonb('owning_team_ids').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'slug']);
    t.index(['team_id', 'created_at']);
    // Routing reads one source's rules in position order.
    t.index(['team_id', 'alerts_source_id', 'position']);
  });
  await knex.schema.createTable('alert_routing_rule_conditions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('alert_routing_rule_id').notNullable().references('id').inTable('alert_routing_rules').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('property_field_type').notNullable();
    t.text('property_field_name').notNullable();
    t.text('property_field_condition_type').notNullable();
    t.text('property_field_value');
    t.jsonb('property_field_values').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['alert_routing_rule_id', 'position']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('alert_routing_rule_conditions');
  await knex.schema.dropTable('alert_routing_rules');
  await knex.schema.dropTable('alert_route_rules');
  await knex.schema.dropTable('alert_routes');
}
