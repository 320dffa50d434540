import type { Knex } from 'knex';

/**
 * The (team_id, position) indexes the list-order indexes of `20261126-0801` (team,
 * position, created_at, id) lead with: the longer index serves every read the shorter did,
 * and each insert wrote both (test/redundant-indexes.test.ts).
 */
const INDEXES: [name: string, table: string, columns: string][] = [
  ['communications_stages_team_id_position_index', 'communications_stages', '(team_id, "position")'],
  ['communications_templates_team_id_position_index', 'communications_templates', '(team_id, "position")'],
  ['communications_types_team_id_position_index', 'communications_types', '(team_id, "position")'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw('DROP INDEX IF EXISTS ??', [name]);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, table, columns] of INDEXES) await knex.raw(`CREATE INDEX IF NOT EXISTS ?? ON ?? ${columns}`, [name, table]);
}
