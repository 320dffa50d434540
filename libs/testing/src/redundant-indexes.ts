import type { Knex } from 'knex';

interface IndexRow {
  table: string;
  name: string;
  columns: string;
  options: string;
  classes: string;
  collations: string;
  method: string;
  nkeys: number;
  partial: boolean;
  plain: boolean;
}

/**
 * The plain indexes (not unique, partial, on expressions or with INCLUDE columns) of the current schema whose
 * key columns, in the same directions, lead another index of their table: that one serves
 * every read they do, and each insert pays for writing both.
 */
export async function redundantIndexes(knex: Knex): Promise<string[]> {
  const { rows } = await knex.raw<{ rows: IndexRow[] }>(`
    SELECT t.relname AS table, i.relname AS name, x.indkey::text AS columns, x.indoption::text AS options,
           x.indclass::text AS classes, x.indcollation::text AS collations, i.relam::text AS method, x.indnkeyatts AS nkeys,
           x.indpred IS NOT NULL AS partial, NOT x.indisunique AND x.indpred IS NULL AND x.indnatts = x.indnkeyatts AS plain
      FROM pg_index x
      JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_class t ON t.oid = x.indrelid
     WHERE t.relnamespace = current_schema()::regnamespace AND x.indexprs IS NULL`);
  // A key column as the index has it: column, direction, operator class and collation.
  const keys = (r: IndexRow) => {
    const [options, classes, collations] = [r.options, r.classes, r.collations].map((v) => v.split(' '));
    // INCLUDE columns (after the key's) are stored, not ordered by.
    return r.columns
      .split(' ')
      .slice(0, r.nkeys)
      .map((column, i) => `${column}:${options[i]}:${classes[i]}:${collations[i]}`);
  };
  // The longer one must serve every row the shorter does, the same way: whole (not partial), same access method.
  const leads = (short: IndexRow, long: IndexRow) => {
    const [s, l] = [keys(short), keys(long)];
    return !long.partial && long.method === short.method && l.length > s.length && s.every((k, i) => l[i] === k);
  };
  return rows
    .filter((r) => r.plain && rows.some((o) => o.table === r.table && o.name !== r.name && leads(r, o)))
    .map((r) => r.name)
    .sort();
}
