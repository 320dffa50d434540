import type { Knex } from 'knex';
import { migrate } from '@firewatch/db';
import { createTestDatabase, redundantIndexes, type TestDatabase } from '@firewatch/testing';
import { migrations } from '../migrations/index.js';

describe('indexes', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    await migrate(db.knex as Knex, migrations);
  });
  afterAll(async () => db?.drop());

  it('has no plain index whose columns lead another of its table (each costs every insert and serves nothing more)', async () => {
    expect(await redundantIndexes(db.knex as Knex)).toEqual([]);
  });
});
