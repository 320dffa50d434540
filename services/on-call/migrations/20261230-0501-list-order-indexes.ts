import type { Knex } from 'knex';

/**
 * Indexes in each team-wide list's default order, the id last (the kit's tiebreaker), as
 * incident-config's `20261126-0800-list-order-indexes`: a page reads its rows from the
 * index in order and stops, and a cursor page seeks to its cursor, where the team-led
 * index without the id (or on the first sort key alone) left pages sorting the team's
 * rows. Alerts list newest first: the same index read backwards. (Children listed under
 * one parent have their parent's index; test/list-order-indexes.test.ts holds every kit
 * list to this.)
 */
const INDEXES: [table: string, columns: string[]][] = [
  ['alert_urgencies', ['team_id', 'position', 'created_at', 'id']],
  ['alert_retrigger_rules', ['team_id', 'position', 'created_at', 'id']],
  ['alert_groups', ['team_id', 'created_at', 'id']],
  ['alert_sources', ['team_id', 'created_at', 'id']],
  ['alerts', ['team_id', 'created_at', 'id']],
  ['alert_events', ['team_id', 'created_at', 'id']],
  ['heartbeats', ['team_id', 'created_at', 'id']],
  ['alert_routes', ['team_id', 'created_at', 'id']],
  ['alert_routing_rules', ['team_id', 'created_at', 'id']],
  ['schedules', ['team_id', 'created_at', 'id']],
  ['escalation_policies', ['team_id', 'created_at', 'id']],
];

const nameOf = (table: string) => `${table}_list_order_index`;

/**
 * The (team_id, created_at) indexes of the tables every alert writes to, which the new
 * ones lead with: dropped, so that ingestion maintains as many indexes as before.
 */
const SUPERSEDED = ['alerts', 'alert_events'];

/**
 * Outside a transaction, each index built CONCURRENTLY: every replica migrates at
 * start-up, and while the new release builds the alert tables' indexes (tables that grow
 * without bound) the old one is still taking in alerts; a plain CREATE INDEX holds a lock
 * that stops every insert and update of the table for the whole build, and a DROP INDEX
 * one that stops its reads too while it waits.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  for (const [table, columns] of INDEXES) {
    // A build that failed part-way (a restart) leaves an invalid index IF NOT EXISTS would keep.
    const { rows } = await knex.raw('SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(?)', [nameOf(table)]);
    if (rows[0]?.indisvalid === false) await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [nameOf(table)]);
    await knex.raw(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ?? ON ?? (${columns.map(() => '??').join(', ')})`, [
      nameOf(table),
      table,
      ...columns,
    ]);
  }
  for (const table of SUPERSEDED) await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [`${table}_team_id_created_at_index`]);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of SUPERSEDED)
    await knex.raw('CREATE INDEX IF NOT EXISTS ?? ON ?? (team_id, created_at)', [`${table}_team_id_created_at_index`, table]);
  for (const [table] of INDEXES) await knex.raw('DROP INDEX IF EXISTS ??', [nameOf(table)]);
}
