import type { Knex } from 'knex';

/**
 * Who created an incident: a private incident is seen by its creator and the team's
 * admins only. Incidents created before have no creator, so their privacy leaves them to
 * admins.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('incidents', (t) => {
    t.integer('created_by_user_id');
  });
  await knex.raw('CREATE INDEX incidents_private_creator ON incidents (team_id, created_by_user_id) WHERE private');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('incidents', (t) => {
    t.dropColumn('created_by_user_id');
  });
}
