import type { Knex } from 'knex';

/** A kit list as the index check needs it: its table and default sort (created_at when none). */
export interface ListedTable {
  table: string;
  defaultSort?: readonly { field: string }[];
}

/** Each index's columns in order, by table, in the connection's schema. */
export async function indexColumns(knex: Knex): Promise<Map<string, string[][]>> {
  const { rows } = (await knex.raw(`
    SELECT t.relname AS table, array_agg(a.attname::text ORDER BY k.n) AS columns
    FROM pg_index x
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace s ON s.oid = t.relnamespace AND s.nspname = current_schema()
    CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
    GROUP BY x.indexrelid, t.relname`)) as { rows: { table: string; columns: string[] }[] };
  const byTable = new Map<string, string[][]>();
  for (const r of rows) byTable.set(r.table, [...(byTable.get(r.table) ?? []), r.columns]);
  return byTable;
}

/**
 * The team-wide lists that have no index in their default order with the id last (the
 * kit's tiebreaker): `team_id`, the sort's fields, `id`. Without one a page reads and sorts
 * the whole team (docs/performance.md, "A page's cost and the team's size").
 */
export async function missingListOrderIndexes(knex: Knex, lists: readonly ListedTable[]): Promise<{ table: string; columns: string[] }[]> {
  const indexes = await indexColumns(knex);
  return lists
    .map((d) => ({ table: d.table, columns: ['team_id', ...(d.defaultSort ?? [{ field: 'created_at' }]).map((s) => s.field), 'id'] }))
    .filter(({ table, columns }) => !(indexes.get(table) ?? []).some((c) => c.join() === columns.join()));
}
