import type { Knex } from 'knex';

// Constants inlined into DDL (which takes no bind parameters).
const COLORS = ['#FCF2CF', '#D7F5E1', '#E9E2FF', '#FAE6E8', '#FAEEE6'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dashboards', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    // The owning user when `owner` is user (the creating principal's user); null for team dashboards.
    t.integer('user_id');
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.text('description');
    t.text('owner').notNullable();
    t.boolean('public').notNullable().defaultTo(false);
    t.text('range');
    t.text('period');
    t.boolean('auto_refresh').notNullable().defaultTo(false);
    t.text('color');
    // The reference's icon is a string, never null: no icon is ''.
    t.text('icon').notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'slug']);
    t.index(['team_id', 'user_id']);
  });
  await knex.raw(
    `ALTER TABLE dashboards ADD CONSTRAINT dashboards_owner_check CHECK (owner IN ('user', 'team') AND (owner = 'team' OR user_id IS NOT NULL))`,
  );
  await knex.raw(
    `ALTER TABLE dashboards ADD CONSTRAINT dashboards_color_check CHECK (color IS NULL OR color IN (${COLORS.map((c) => `'${c}'`).join(', ')}))`,
  );

  await knex.schema.createTable('dashboard_panels', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    // Panels live and die with their dashboard.
    t.uuid('dashboard_id').notNullable().references('id').inTable('dashboards').onDelete('CASCADE');
    t.text('name');
    t.jsonb('params').notNullable();
    t.jsonb('position');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'dashboard_id']);
  });

  // Each user's default dashboard (POST /v1/dashboards/{id}/set_default); gone with the dashboard.
  await knex.schema.createTable('dashboard_defaults', (t) => {
    t.integer('team_id').notNullable();
    t.integer('user_id').notNullable();
    t.uuid('dashboard_id').notNullable().references('id').inTable('dashboards').onDelete('CASCADE');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['team_id', 'user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('dashboard_defaults');
  await knex.schema.dropTable('dashboard_panels');
  await knex.schema.dropTable('dashboards');
}
