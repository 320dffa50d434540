import type { Knex } from 'knex';

/**
 * Grouping (docs/on-call.md, "Grouping"): an alert remembers the group it fell into and
 * its leader; leaders are found per team and group among the unresolved ones, newest
 * first, which the partial index serves without reading members or resolved alerts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alerts', (t) => {
    t.uuid('alert_group_id').references('alert_groups.id').onDelete('SET NULL');
    t.uuid('group_leader_alert_id').references('alerts.id').onDelete('SET NULL');
    t.boolean('is_group_leader_alert').notNullable().defaultTo(false);
  });
  await knex.raw(
    `CREATE INDEX alerts_open_group_leaders ON alerts (team_id, alert_group_id, created_at)
     WHERE is_group_leader_alert AND status <> 'resolved'`,
  );
  await knex.raw('CREATE INDEX alerts_group_leader_alert_id ON alerts (group_leader_alert_id) WHERE group_leader_alert_id IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alerts', (t) => {
    t.dropColumn('is_group_leader_alert');
    t.dropColumn('group_leader_alert_id');
    t.dropColumn('alert_group_id');
  });
}
