import type { Knex } from 'knex';
import { createTestDatabase, redundantIndexes, type TestDatabase } from '../src/index.js';

describe('redundantIndexes', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('fw_testing_redundant_indexes');
    await db.knex.raw(`
      CREATE TABLE t (a int, b int, c text, d jsonb);
      CREATE INDEX led ON t (a);
      CREATE INDEX leader ON t (a, b);
      CREATE INDEX led_desc ON t (b DESC);
      CREATE INDEX not_its_direction ON t (b, a);
      CREATE INDEX by_pattern ON t (c text_pattern_ops);
      CREATE INDEX by_default_ops ON t (c, a);
      CREATE INDEX led_by_partial ON t (d);
      CREATE INDEX partial ON t (d, a) WHERE a > 0;
      CREATE UNIQUE INDEX unique_prefix ON t (a, c);
      CREATE INDEX led_by_include ON t (c, b);
      CREATE INDEX includes ON t (c) INCLUDE (b);`);
  });
  afterAll(async () => db?.drop());

  it('names a plain index whose key columns lead a whole index of the same kind, nothing else', async () => {
    // `led` under `leader`; `includes` is led by `led_by_include` but answers from its own
    // INCLUDE columns (were they others) what the longer one may not: it is not plain.
    expect(await redundantIndexes(db.knex as Knex)).toEqual(['led']);
  });
});
