import type { Knex } from 'knex';
import { createTestDatabase, missingListOrderIndexes, type TestDatabase } from '../src/index.js';

// The check holds each team-wide list to an index it can read in order: its columns, and
// their directions as the sort has them (or all reversed: an index reads backwards), the
// id in the last key's (the kit's tiebreaker). A mixed order (retrospective processes:
// is_default descending, then created_at ascending) needs the index to mix them alike.
describe('missingListOrderIndexes', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('fw_testing_list_order');
    for (const table of ['mixed_asc', 'mixed_desc', 'mixed_reversed', 'plain_desc'])
      await db.knex.raw(`CREATE TABLE ${table} (id uuid, team_id int, is_default boolean, created_at timestamptz)`);
    await db.knex.raw('CREATE INDEX ON mixed_asc (team_id, is_default, created_at, id)');
    await db.knex.raw('CREATE INDEX ON mixed_desc (team_id, is_default DESC, created_at, id)');
    await db.knex.raw('CREATE INDEX ON mixed_reversed (team_id, is_default, created_at DESC, id DESC)');
    // One direction throughout: read backwards for a descending list.
    await db.knex.raw('CREATE INDEX ON plain_desc (team_id, created_at, id)');
  });
  afterAll(async () => db?.drop());

  const mixed = [
    { field: 'is_default', direction: 'desc' as const },
    { field: 'created_at', direction: 'asc' as const },
  ];

  it('wants the directions of a mixed order, either way round, and takes one direction read backwards', async () => {
    const missing = await missingListOrderIndexes(db.knex as Knex, [
      { table: 'mixed_asc', defaultSort: mixed },
      { table: 'mixed_desc', defaultSort: mixed },
      { table: 'mixed_reversed', defaultSort: mixed },
      { table: 'plain_desc', defaultSort: [{ field: 'created_at', direction: 'desc' }] },
    ]);
    expect(missing.map((m) => m.table)).toEqual(['mixed_asc']);
  });
});
