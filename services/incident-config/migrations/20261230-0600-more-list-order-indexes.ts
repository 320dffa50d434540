import type { Knex } from 'knex';

/**
 * The list-order indexes migration 0800 missed or got wrong (test/list-order-indexes.test.ts
 * now derives them from the declarations): severities and incident types sort by position
 * first, so 0800's (team_id, created_at, id) did not serve their pages; retrospective
 * processes sort the default first (`is_default` descending, hence that column's
 * direction); dashboards' authorizations had none.
 */
const INDEXES: [name: string, table: string, columns: string][] = [
  ['severities_list_order_index', 'severities', '(team_id, position, created_at, id)'],
  ['incident_types_list_order_index', 'incident_types', '(team_id, position, created_at, id)'],
  ['retrospective_processes_list_order_index', 'retrospective_processes', '(team_id, is_default DESC, created_at, id)'],
  ['authorizations_list_order_index', 'authorizations', '(team_id, created_at, id)'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, table, columns] of INDEXES) {
    await knex.raw('DROP INDEX IF EXISTS ??', [name]);
    await knex.raw(`CREATE INDEX ?? ON ?? ${columns}`, [name, table]);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw('DROP INDEX IF EXISTS ??', [name]);
  // 0800's versions, as they were.
  await knex.raw('CREATE INDEX IF NOT EXISTS severities_list_order_index ON severities (team_id, created_at, id)');
  await knex.raw('CREATE INDEX IF NOT EXISTS incident_types_list_order_index ON incident_types (team_id, created_at, id)');
}
