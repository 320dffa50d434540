import type { Knex } from 'knex';
import { migrate } from '@firewatch/db';
import { operationsOf } from '@firewatch/resource-kit';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { migrations } from '../migrations/index.js';
import { registry } from '../src/domain/registry.js';

/** Each index's columns in order, by table. */
async function indexesOf(knex: Knex): Promise<Map<string, string[][]>> {
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

describe('list-order indexes', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    await migrate(db.knex as Knex, migrations);
  });
  afterAll(async () => db?.drop());

  it("gives every team-wide kit list an index in its default order, the id last (the kit's tiebreaker)", async () => {
    const indexes = await indexesOf(db.knex as Knex);
    // Children listed under one parent have their parent's index; sources store nothing.
    const lists = registry.declarations.filter((d) => d.table && !d.parent && !d.source && operationsOf(d).has('list'));
    const missing = lists
      .map((d) => ({
        table: d.table!,
        columns: ['team_id', ...(d.defaultSort ?? [{ field: 'created_at' }]).map((s) => s.field), 'id'],
      }))
      .filter(({ table, columns }) => !(indexes.get(table) ?? []).some((c) => c.join() === columns.join()));
    expect(lists.map((d) => d.table)).toContain('groups');
    expect(missing).toEqual([]);
  });
});
