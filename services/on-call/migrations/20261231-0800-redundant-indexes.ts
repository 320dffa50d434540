import type { Knex } from 'knex';

/**
 * Indexes whose columns lead another index of their table — each the team-led index the
 * list-order index of `20261230-0501` (team, sort key, created_at, id) made redundant: the
 * longer index serves every read the shorter did, and each insert wrote both
 * (test/redundant-indexes.test.ts).
 */
const INDEXES: [name: string, table: string, columns: string][] = [
  ['alert_groups_team_id_created_at_index', 'alert_groups', '(team_id, created_at)'],
  ['alert_retrigger_rules_team_id_position_created_at_index', 'alert_retrigger_rules', '(team_id, "position", created_at)'],
  ['alert_routes_team_id_created_at_index', 'alert_routes', '(team_id, created_at)'],
  ['alert_routing_rules_team_id_created_at_index', 'alert_routing_rules', '(team_id, created_at)'],
  ['alert_sources_team_id_created_at_index', 'alert_sources', '(team_id, created_at)'],
  ['alert_urgencies_team_id_position_index', 'alert_urgencies', '(team_id, "position")'],
  ['escalation_policies_team_id_created_at_index', 'escalation_policies', '(team_id, created_at)'],
  ['heartbeats_team_id_created_at_index', 'heartbeats', '(team_id, created_at)'],
  ['schedules_team_id_created_at_index', 'schedules', '(team_id, created_at)'],
];

/**
 * Outside a transaction, each index dropped CONCURRENTLY, as `20261230-0501` dropped the
 * alert tables' own: every alert reads alert_sources, the routing tables and
 * escalation_policies, still arriving while a release migrates, and a plain DROP INDEX
 * stops those reads while it waits for its lock.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [name]);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, table, columns] of INDEXES) await knex.raw(`CREATE INDEX IF NOT EXISTS ?? ON ?? ${columns}`, [name, table]);
}
