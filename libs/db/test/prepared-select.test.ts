import { jest } from '@jest/globals';
import type { Knex } from 'knex';
import { createDb, createPreparedSelects, openDatabase, type Migrations } from '../src/index.js';
import { scratchDatabase } from './scratch-database.js';

const scratch = scratchDatabase('fw_test_prep');
const { url } = scratch;

const migrations: Migrations = {
  '20260101-0001-things': {
    up: (knex: Knex) =>
      knex.schema.createTable('things', (t) => {
        t.increments('id');
        t.integer('team_id');
        t.text('name');
      }),
    down: (knex: Knex) => knex.schema.dropTable('things'),
  },
};

let knex: Knex;
/** The statements PostgreSQL holds for the pool's one connection. */
const serverStatements = async () => (await knex.raw('select count(*)::int as n from pg_prepared_statements')).rows[0].n as number;

beforeAll(async () => {
  await (await openDatabase({ url, migrations })).destroy();
  knex = createDb(url, { poolMax: 1 });
  await knex('things').insert([
    { team_id: 1, name: 'a' },
    { team_id: 1, name: 'b' },
    { team_id: 2, name: 'c' },
  ]);
});

afterAll(async () => {
  await knex.destroy();
  await scratch.drop();
});

const byName = (team: number, thing: string) => () => knex('things').where({ team_id: team }).where('name', thing).select('*').limit(1);

describe('prepared selects', () => {
  it('answers as the query it was built from, and PostgreSQL keeps the statement', async () => {
    const selects = createPreparedSelects();
    expect(await serverStatements()).toBe(0);
    for (const [team, thing] of [
      [1, 'a'],
      [1, 'b'],
      [2, 'a'],
      [2, 'c'],
    ] as const) {
      const rows = await selects.rows(knex, 'things by name', [team, thing, 1], byName(team, thing));
      expect(rows).toEqual(await byName(team, thing)());
    }
    expect(await serverStatements()).toBe(1);
  });

  it('never prepares a key whose bindings are not the compiled ones', async () => {
    const selects = createPreparedSelects();
    const before = await serverStatements();
    // The promised bindings leave out the limit: the statement would be wrong, so none is made.
    const rows = await selects.rows(knex, 'bad key', [1, 'a'], byName(1, 'a'));
    expect(rows).toEqual([expect.objectContaining({ name: 'a', team_id: 1 })]);
    expect(await serverStatements()).toBe(before);
  });

  it('stops preparing new keys at its cap', async () => {
    const selects = createPreparedSelects({ max: 1 });
    const before = await serverStatements();
    // SQL no other test prepares: a name is its SQL's digest, shared by every cache.
    await selects.rows(knex, 'one', [1, 'a', 1], () => knex('things').where({ team_id: 1 }).where('name', 'a').select('id').limit(1));
    const rows = await selects.rows(knex, 'two', [1, 'b'], () => knex('things').where({ team_id: 1, name: 'b' }).select('name'));
    expect(rows).toEqual([{ name: 'b' }]);
    expect(await serverStatements()).toBe(before + 1);
  });

  it('survives a column added under a prepared select *', async () => {
    const selects = createPreparedSelects();
    const run = () => selects.rows<Record<string, unknown>>(knex, 'things star', [2, 'c', 1], byName(2, 'c'));
    expect(Object.keys((await run())[0])).toEqual(['id', 'team_id', 'name']);
    await knex.schema.alterTable('things', (t) => {
      t.text('added').defaultTo('x');
    });
    expect((await run())[0]).toEqual(expect.objectContaining({ name: 'c', added: 'x' }));
    expect((await run())[0]).toEqual(expect.objectContaining({ name: 'c', added: 'x' }));
  });

  it('gives preparing up when a pooler loses its statements, and still answers', async () => {
    const selects = createPreparedSelects();
    const run = () => selects.rows(knex, 'things lost', [1, 'a', 1], byName(1, 'a'));
    expect(await run()).toEqual([expect.objectContaining({ name: 'a' })]);
    // What a transaction-mode pooler does between two transactions of this client.
    await knex.raw('deallocate all');
    expect(await run()).toEqual([expect.objectContaining({ name: 'a' })]);
    const before = await serverStatements();
    expect(await run()).toEqual([expect.objectContaining({ name: 'a' })]);
    expect(await serverStatements()).toBe(before);
  });

  it('asks PostgreSQL to describe a statement once per connection, and parses its rows as pg does', async () => {
    const selects = createPreparedSelects();
    // The pool's one connection; SQL no other test prepares.
    const client = (await knex.client.acquireConnection()) as { connection: { describe(msg: unknown): void } };
    await knex.client.releaseConnection(client);
    const describe = jest.spyOn(client.connection, 'describe');
    const build = (team: number) => () => knex('things').where({ team_id: team }).select('id', 'name', 'team_id').orderBy('id').limit(5);
    try {
      for (const team of [1, 2, 1, 3])
        expect(await selects.rows(knex, 'described once', [team, 5], build(team))).toEqual(await build(team)());
      // The first execution, and each of the plain queries compared with.
      expect(describe).toHaveBeenCalledTimes(1 + 4);
    } finally {
      describe.mockRestore();
    }
  });

  it('names a statement by its SQL, so every cache and process means the same SQL by a name', async () => {
    const [a, b] = [createPreparedSelects(), createPreparedSelects()];
    const before = await serverStatements();
    const build = () => knex('things').where({ team_id: 2 }).where('name', 'c').select('name', 'team_id').limit(1);
    expect(await a.rows(knex, 'first key', [2, 'c', 1], build)).toEqual([{ name: 'c', team_id: 2 }]);
    expect(await b.rows(knex, 'second key', [2, 'c', 1], build)).toEqual([{ name: 'c', team_id: 2 }]);
    expect(await serverStatements()).toBe(before + 1);
  });
});
