import type { Knex } from 'knex';
import { migrate } from '@firewatch/db';
import { operationsOf } from '@firewatch/resource-kit';
import { createTestDatabase, missingListOrderIndexes, type TestDatabase } from '@firewatch/testing';
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
    expect(lists.length).toBeGreaterThan(2);
    expect(
      await missingListOrderIndexes(
        db.knex as Knex,
        lists.map((d) => ({ table: d.table!, defaultSort: d.defaultSort })),
      ),
    ).toEqual([]);
  });
});
