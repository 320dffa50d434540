import type { Knex } from 'knex';
import { migrate } from '@firewatch/db';
import { operationsOf } from '@firewatch/resource-kit';
import { createTestDatabase, indexColumns, missingListOrderIndexes, type TestDatabase } from '@firewatch/testing';
import { migrations } from '../migrations/index.js';
import { registry } from '../src/domain/registry.js';

describe('list-order indexes', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    await migrate(db.knex as Knex, migrations);
  });
  afterAll(async () => db?.drop());

  it("gives every team-wide kit list an index in its default order, the id last (the kit's tiebreaker)", async () => {
    // Children listed under one parent have their parent's index; sources store nothing.
    const lists = registry.declarations.filter((d) => d.table && !d.parent && !d.source && operationsOf(d).has('list'));
    expect(lists.length).toBeGreaterThan(5);
    expect(
      await missingListOrderIndexes(
        db.knex as Knex,
        lists.map((d) => ({ table: d.table!, defaultSort: d.defaultSort })),
      ),
    ).toEqual([]);
    // The alert tables keep no (team_id, created_at) index beside it: every alert would maintain both.
    const indexes = await indexColumns(db.knex as Knex);
    for (const table of ['alerts', 'alert_events']) expect(indexes.get(table)!.map((c) => c.join())).not.toContain('team_id,created_at');
  });
});
