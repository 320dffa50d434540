import type { Knex } from 'knex';

interface IndexRow {
  table: string;
  name: string;
  columns: string;
  options: string;
  plain: boolean;
}

/**
 * The plain indexes (not unique, partial or on expressions) of the current schema whose
 * key columns, in the same directions, lead another index of their table: that one serves
 * every read they do, and each insert pays for writing both.
 */
export async function redundantIndexes(knex: Knex): Promise<string[]> {
  const { rows } = await knex.raw<{ rows: IndexRow[] }>(`
    SELECT t.relname AS table, i.relname AS name, x.indkey::text AS columns, x.indoption::text AS options,
           NOT x.indisunique AND x.indpred IS NULL AS plain
      FROM pg_index x
      JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_class t ON t.oid = x.indrelid
     WHERE t.relnamespace = current_schema()::regnamespace AND x.indexprs IS NULL`);
  const keys = (r: IndexRow) => {
    const options = r.options.split(' ');
    return r.columns.split(' ').map((column, i) => `${column}:${options[i]}`);
  };
  const leads = (short: string[], long: string[]) => long.length > short.length && short.every((k, i) => long[i] === k);
  return rows
    .filter((r) => r.plain && rows.some((o) => o.table === r.table && o.name !== r.name && leads(keys(r), keys(o))))
    .map((r) => r.name)
    .sort();
}
