import type { Knex } from 'knex';
import { createDb, createPreparedSelects, openDatabase, type Migrations } from '../src/index.js';
import { scratchDatabase } from './scratch-database.js';

// A prepared select is described once per connection (prepared-execution.ts). Behind a
// transaction-mode pooler, its name may meet a statement parsed again after a migration,
// with no 0A000; the rows must still be the table's current ones.
const scratch = scratchDatabase('fw_test_prepared_shape');
const migrations: Migrations = {
  '20260101-0001-gadgets': {
    up: (knex: Knex) =>
      knex.schema.createTable('gadgets', (t) => {
        t.increments('id');
        t.integer('team_id');
        t.text('name');
        t.text('note');
      }),
    down: (knex: Knex) => knex.schema.dropTable('gadgets'),
  },
};
let knex: Knex;
beforeAll(async () => {
  await (await openDatabase({ url: scratch.url, migrations })).destroy();
  knex = createDb(scratch.url, { poolMax: 1 });
  await knex('gadgets').insert([{ team_id: 1, name: 'a', note: 'n1' }]);
});
afterAll(async () => {
  await knex.destroy();
  await scratch.drop();
});

// What a pooler's server connection holds: the same name and text, parsed after `migration`.
async function parsedAgainAfter(migration: string): Promise<void> {
  const { rows } = await knex.raw(`select name, statement from pg_prepared_statements where name like 'fw\\_%' order by prepare_time desc`);
  const { name, statement } = rows[0];
  await knex.raw(migration);
  await knex.raw(`deallocate "${name}"`);
  await knex.raw(`prepare "${name}" as ${statement}`);
}

// Each case its own SQL (the filter), so its own statement name, whatever ran before.
it.each([
  ['dropped', 'alter table gadgets drop column note', false],
  ['added', 'alter table gadgets add column extra text', true],
])('answers the current rows after a column is %s under the statement of its name', async (_, migration, byId) => {
  const selects = createPreparedSelects();
  const build = () => {
    const q = knex('gadgets').where({ team_id: 1 }).select('gadgets.*').limit(1);
    return byId ? q.whereNotNull('gadgets.id') : q;
  };
  const run = () => selects.rows(knex, 'gadgets', [1, 1], build);
  expect(await run()).toEqual(await build());
  await parsedAgainAfter(migration);
  const current = await build();
  expect(await run()).toEqual(current);
  expect(await run()).toEqual(current);
});
