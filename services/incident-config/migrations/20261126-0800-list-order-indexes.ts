import type { Knex } from 'knex';

/**
 * Indexes in each list's default order, the id last (the kit's tiebreaker): a page reads
 * its rows from the index in order and stops, and a cursor page seeks to its cursor,
 * where a team-led index on the first sort key alone left every page reading and sorting
 * the whole team. (Children listed under one parent have their parent's index.)
 */
const INDEXES: [table: string, columns: string[]][] = [
  ['environments', ['team_id', 'position', 'created_at', 'id']],
  ['services', ['team_id', 'position', 'created_at', 'id']],
  ['functionalities', ['team_id', 'position', 'created_at', 'id']],
  ['catalog_properties', ['team_id', 'position', 'created_at', 'id']],
  ['incident_roles', ['team_id', 'position', 'created_at', 'id']],
  ['incidents', ['team_id', 'created_at', 'id']],
  ['secrets', ['team_id', 'created_at', 'id']],
  ['form_sets', ['team_id', 'created_at', 'id']],
  ['dashboards', ['team_id', 'created_at', 'id']],
  ['severities', ['team_id', 'created_at', 'id']],
  ['incident_types', ['team_id', 'created_at', 'id']],
];

const nameOf = (table: string) => `${table}_list_order_index`;

export async function up(knex: Knex): Promise<void> {
  for (const [table, columns] of INDEXES)
    await knex.raw(`CREATE INDEX IF NOT EXISTS ?? ON ?? (${columns.map(() => '??').join(', ')})`, [nameOf(table), table, ...columns]);
}

export async function down(knex: Knex): Promise<void> {
  for (const [table] of INDEXES) await knex.raw('DROP INDEX IF EXISTS ??', [nameOf(table)]);
}
