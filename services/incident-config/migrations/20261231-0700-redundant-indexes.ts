import type { Knex } from 'knex';

/**
 * Indexes whose columns lead another index of their table — most of them the list-order
 * indexes of 0800 and 0600 (team, position or created_at, then id): the longer index serves
 * every read the shorter did, and each insert wrote both (test/redundant-indexes.test.ts).
 */
const INDEXES: [name: string, table: string, columns: string][] = [
  ['authorizations_team_id_created_at_index', 'authorizations', '(team_id, created_at)'],
  ['environments_team_id_position_index', 'environments', '(team_id, position)'],
  ['functionalities_team_id_position_index', 'functionalities', '(team_id, position)'],
  ['incident_event_services_incident_event_id_index', 'incident_event_services', '(incident_event_id)'],
  ['incident_roles_team_id_position_index', 'incident_roles', '(team_id, position)'],
  ['incident_types_team_id_position_index', 'incident_types', '(team_id, position)'],
  ['incidents_team_id_created_at_index', 'incidents', '(team_id, created_at)'],
  ['secrets_team_id_created_at_index', 'secrets', '(team_id, created_at)'],
  ['services_team_id_position_index', 'services', '(team_id, position)'],
  ['severities_team_id_position_index', 'severities', '(team_id, position)'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw('DROP INDEX IF EXISTS ??', [name]);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, table, columns] of INDEXES) await knex.raw(`CREATE INDEX IF NOT EXISTS ?? ON ?? ${columns}`, [name, table]);
}
