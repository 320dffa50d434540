import type { Knex } from 'knex';

/**
 * Who may do what to each dashboard, one row per (dashboard, subject): its owner (the
 * user, or the team as a whole) may do everything, anyone of the team may read a public
 * one, and each grant gives what it lists. The declarations' visibility rules match rows
 * of it by equality (`subject_type`, `subject_id`, `can_*`), so the rule lives here once
 * for dashboards (their panels follow them) and the grants on them.
 */
const DASHBOARD_ACCESS = `
  SELECT id AS dashboard_id, team_id, 'Team'::text AS subject_type, team_id::text AS subject_id,
         true AS can_read, true AS can_update, true AS can_destroy, true AS can_authorize
    FROM dashboards WHERE owner = 'team'
  UNION ALL
  SELECT id, team_id, 'User', user_id::text, true, true, true, true FROM dashboards WHERE owner = 'user'
  UNION ALL
  SELECT id, team_id, 'Public', '*', true, false, false, false FROM dashboards WHERE public
  UNION ALL
  SELECT authorizable_id, team_id, grantee_type, grantee_id, can_read, can_update, can_destroy, can_authorize
    FROM authorizations WHERE authorizable_type = 'Dashboard'`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('authorizations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('authorizable_type').notNullable();
    // Dashboards are the one authorizable type; a grant goes with its dashboard.
    t.uuid('authorizable_id').notNullable().references('id').inTable('dashboards').onDelete('CASCADE');
    t.text('grantee_type').notNullable();
    t.text('grantee_id').notNullable();
    // One column per permission, so that visibility rules can match a permission by equality.
    for (const p of ['can_read', 'can_update', 'can_destroy', 'can_authorize']) t.boolean(p).notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'created_at']);
  });
  await knex.raw(`CREATE UNIQUE INDEX authorizations_grantee_unique
    ON authorizations (authorizable_type, authorizable_id, grantee_type, grantee_id)`);
  await knex.raw(`CREATE VIEW dashboard_access AS ${DASHBOARD_ACCESS}`);
  await knex.raw(`CREATE VIEW authorization_access AS
    SELECT g.id AS authorization_id, a.* FROM authorizations g JOIN dashboard_access a ON a.dashboard_id = g.authorizable_id`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP VIEW authorization_access');
  await knex.raw('DROP VIEW dashboard_access');
  await knex.schema.dropTable('authorizations');
}
