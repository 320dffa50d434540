import type { Knex } from 'knex';

/**
 * Escalation policies, their paths and levels (issue 24). Other parts of issue 24 (the
 * paging engine, routing) read these tables: the names and columns are the ones agreed
 * there. A policy has exactly one default path (a partial unique index); deleting a
 * policy deletes its paths, and deleting a path its levels (ON DELETE CASCADE).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('escalation_policies', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('description');
    t.integer('repeat_count').notNullable().defaultTo(0);
    t.specificType('group_ids', 'uuid[]').notNullable().defaultTo('{}');
    t.specificType('service_ids', 'uuid[]').notNullable().defaultTo('{}');
    t.jsonb('business_hours');
    t.integer('created_by_user_id');
    t.integer('last_updated_by_user_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'created_at']);
  });
  await knex.raw('CREATE UNIQUE INDEX escalation_policies_team_id_name_unique ON escalation_policies (team_id, lower(name))');
  // policyFor(Group|Service): the policies naming a team or a service.
  await knex.raw('CREATE INDEX escalation_policies_group_ids ON escalation_policies USING gin (group_ids)');
  await knex.raw('CREATE INDEX escalation_policies_service_ids ON escalation_policies USING gin (service_ids)');

  await knex.schema.createTable('escalation_paths', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.uuid('escalation_policy_id').notNullable().references('id').inTable('escalation_policies').onDelete('CASCADE');
    t.text('name').notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.text('notification_type').notNullable().defaultTo('audible');
    t.text('path_type').notNullable().defaultTo('escalation');
    t.text('after_deferral_behavior');
    t.uuid('after_deferral_path_id');
    t.text('match_mode').notNullable().defaultTo('match-all-rules');
    t.integer('position').notNullable().defaultTo(0);
    t.boolean('repeat').notNullable().defaultTo(false);
    t.integer('repeat_count').notNullable().defaultTo(0);
    t.integer('initial_delay').notNullable().defaultTo(0);
    t.jsonb('rules').notNullable().defaultTo('[]');
    t.text('time_restriction_time_zone');
    t.jsonb('time_restrictions').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['escalation_policy_id', 'position']);
    t.index(['team_id', 'created_at']);
  });
  await knex.raw('CREATE UNIQUE INDEX escalation_paths_one_default ON escalation_paths (escalation_policy_id) WHERE is_default');

  await knex.schema.createTable('escalation_levels', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.uuid('escalation_policy_id').notNullable().references('id').inTable('escalation_policies').onDelete('CASCADE');
    t.uuid('escalation_policy_path_id').notNullable().references('id').inTable('escalation_paths').onDelete('CASCADE');
    t.integer('position').notNullable().defaultTo(0);
    t.integer('delay').notNullable().defaultTo(0);
    t.text('paging_strategy_configuration_strategy').notNullable().defaultTo('default');
    t.text('paging_strategy_configuration_schedule_strategy').notNullable().defaultTo('on_call_only');
    t.jsonb('notification_target_params').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['escalation_policy_path_id', 'position']);
    t.index(['escalation_policy_id', 'position']);
    t.index(['team_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('escalation_levels');
  await knex.schema.dropTable('escalation_paths');
  await knex.schema.dropTable('escalation_policies');
}
