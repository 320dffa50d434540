import type { Knex } from 'knex';

/** A kit list as the index check needs it: its table and default sort (created_at ascending when none). */
export interface ListedTable {
  table: string;
  defaultSort?: readonly { field: string; direction?: 'asc' | 'desc' }[];
}

/** Each index's key columns in order, with which of them are descending, by table, in the connection's schema. */
async function indexKeys(knex: Knex): Promise<Map<string, { columns: string[]; descending: boolean[] }[]>> {
  const { rows } = (await knex.raw(`
    SELECT t.relname AS table, array_agg(a.attname::text ORDER BY k.n) AS columns,
           array_agg((k.option & 1) = 1 ORDER BY k.n) AS descending
    FROM pg_index x
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace s ON s.oid = t.relnamespace AND s.nspname = current_schema()
    CROSS JOIN LATERAL unnest(x.indkey::int2[], x.indoption::int2[]) WITH ORDINALITY AS k(attnum, option, n)
    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
    GROUP BY x.indexrelid, t.relname`)) as { rows: { table: string; columns: string[]; descending: boolean[] }[] };
  const byTable = new Map<string, { columns: string[]; descending: boolean[] }[]>();
  for (const r of rows) byTable.set(r.table, [...(byTable.get(r.table) ?? []), { columns: r.columns, descending: r.descending }]);
  return byTable;
}

/** Each index's columns in order, by table, in the connection's schema. */
export async function indexColumns(knex: Knex): Promise<Map<string, string[][]>> {
  return new Map([...(await indexKeys(knex))].map(([table, keys]) => [table, keys.map((k) => k.columns)]));
}

/**
 * The team-wide lists that have no index in their default order with the id last (the
 * kit's tiebreaker, in the last key's direction): `team_id`, the sort's fields, `id`, each
 * in the sort's direction or all reversed (read backwards; `team_id`'s is any, it is
 * compared for equality). Without one a page reads and sorts the whole team
 * (docs/performance.md, "A page's cost and the team's size").
 */
export async function missingListOrderIndexes(knex: Knex, lists: readonly ListedTable[]): Promise<{ table: string; columns: string[] }[]> {
  const indexes = await indexKeys(knex);
  return lists
    .map((d) => {
      const sort = (d.defaultSort ?? [{ field: 'created_at' }]).map((s) => ({ field: s.field, desc: s.direction === 'desc' }));
      const keys = [...sort, { field: 'id', desc: sort[sort.length - 1]?.desc ?? false }];
      return { table: d.table, columns: ['team_id', ...keys.map((k) => k.field)], descending: keys.map((k) => k.desc) };
    })
    .filter(
      ({ table, columns, descending }) =>
        !(indexes.get(table) ?? []).some((index) => {
          if (index.columns.join() !== columns.join()) return false;
          const flipped = descending.map((desc, i) => desc !== index.descending[i + 1]);
          return flipped.every((f) => f === flipped[0]);
        }),
    )
    .map(({ table, columns }) => ({ table, columns }));
}
