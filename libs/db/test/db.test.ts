import type { Knex } from 'knex';
import { databaseName, ensureDatabase, isUniqueViolation, openDatabase, type Migrations } from '../src/index.js';
import { scratchDatabase } from './scratch-database.js';

const scratch = scratchDatabase('fw_test_db');
const { name, url } = scratch;

const migrations: Migrations = {
  '20260101-0001-things': {
    up: (knex: Knex) =>
      knex.schema.createTable('things', (t) => {
        t.increments('id');
        t.text('name').unique();
      }),
    down: (knex: Knex) => knex.schema.dropTable('things'),
  },
};

afterAll(() => scratch.drop());

describe('database start-up', () => {
  it('creates a missing database once', async () => {
    expect(databaseName(url)).toBe(name);
    expect(await ensureDatabase(url)).toBe(true);
    expect(await ensureDatabase(url)).toBe(false);
  });

  it('migrates once even when replicas start together', async () => {
    const [a, b] = await Promise.all([openDatabase({ url, migrations }), openDatabase({ url, migrations })]);
    try {
      const rows = await a('knex_migrations').select('name');
      expect(rows.map((r) => r.name)).toEqual(['20260101-0001-things']);
      await a('things').insert({ name: 'x' });
      const dup = await b('things')
        .insert({ name: 'x' })
        .catch((err: unknown) => err);
      expect(isUniqueViolation(dup)).toBe(true);
    } finally {
      await a.destroy();
      await b.destroy();
    }
  });

  it('refuses database names it would have to quote', async () => {
    await expect(ensureDatabase(url.replace(name, 'bad-name"'))).rejects.toThrow(/unusual name/);
  });
});
