import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('alert_retrigger_rules', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('match_mode').notNullable();
    // Null: an acknowledged alert this rule decides is never re-triggered.
    t.integer('timeout_minutes');
    t.integer('position').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Evaluation reads a team's rules in this order (rule-selector.ts).
    t.index(['team_id', 'position', 'created_at']);
  });
  await knex.raw(
    `ALTER TABLE alert_retrigger_rules ADD CONSTRAINT alert_retrigger_rules_match_mode_check CHECK (match_mode IN ('match-all-rules', 'match-any-rule'))`,
  );

  await knex.schema.createTable('alert_retrigger_rule_conditions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('alert_retrigger_rule_id').notNullable().references('id').inTable('alert_retrigger_rules').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('kind').notNullable();
    t.text('operator').notNullable();
    // Ids of other services' records (services, groups, alert sources): see docs/on-call.md.
    t.jsonb('record_ids').notNullable().defaultTo('[]');
    t.jsonb('values').notNullable().defaultTo('[]');
    t.text('property_field_name');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['alert_retrigger_rule_id', 'position']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('alert_retrigger_rule_conditions');
  await knex.schema.dropTable('alert_retrigger_rules');
}
