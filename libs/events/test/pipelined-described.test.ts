import { jest } from '@jest/globals';
import knex, { type Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { pipelinedTransaction, preparedName, SENT_WITH_NEXT } from '../src/pipelined-transaction.js';

// A pipelined transaction's named statements go as libs/db's preparedQuery: described once
// per connection, answered as pg's Query answers them (knex reads pg's Result).
let db: TestDatabase;
/** A pool of one connection, so that every transaction runs on the connection watched. */
let one: Knex;
beforeAll(async () => {
  db = await createTestDatabase('fw_events_pipelined_described');
  one = knex({ client: 'pg', connection: db.url, pool: { min: 1, max: 1 } });
  await db.knex.schema.createTable('gadgets', (t) => {
    t.integer('id').primary();
    t.text('name').unique();
    t.timestamp('at', { useTz: true });
    t.jsonb('data');
    t.specificType('tags', 'text[]');
    t.binary('blob');
    t.boolean('on');
  });
});
afterAll(async () => {
  await one?.destroy();
  await db?.drop();
});
beforeEach(() => db.knex('gadgets').delete());

const INSERT = 'insert into gadgets (id, name, at, data, tags, blob, "on") values (?, ?, ?, ?, ?, ?, ?) returning *';
type Values = readonly unknown[];
/** The insert in a pipelined transaction, named when `named`; `held` sends it with the COMMIT. */
async function insert(values: Values, named: boolean, held = false): Promise<unknown> {
  return pipelinedTransaction(one, async (trx) => {
    const name = named ? preparedName(trx, INSERT) : undefined;
    const options = { ...(name !== undefined && { name }), ...(held && { [SENT_WITH_NEXT]: true }) };
    return trx.raw(INSERT, values as Knex.ValueDict[]).options(options);
  });
}

/** What pg's Result gives knex, as a plain object. */
const answer = (result: unknown) => {
  const { command, rowCount, oid, rows, fields } = result as Record<string, unknown>;
  return { command, rowCount, oid, rows, fields };
};

/** The pool's one pg connection, watched: its Describe messages. */
async function describes(): Promise<{ count(): number; restore(): void }> {
  const client = (await one.client.acquireConnection()) as { connection: { describe(msg: unknown): void } };
  await one.client.releaseConnection(client);
  const spy = jest.spyOn(client.connection, 'describe');
  return { count: () => spy.mock.calls.length, restore: () => spy.mockRestore() };
}

it('answers a named statement as pg does, asking PostgreSQL to describe it once per connection', async () => {
  const described = await describes();
  try {
    const named = [];
    for (let id = 1; id <= 3; id++) named.push(answer(await insert([id, `n${id}`, null, null, null, null, true], true)));
    expect(described.count()).toBe(1);
    await one('gadgets').delete();
    const plain = [];
    for (let id = 1; id <= 3; id++) plain.push(answer(await insert([id, `n${id}`, null, null, null, null, true], false)));
    expect(named).toEqual(plain);
    expect(named[0]).toMatchObject({ command: 'INSERT', rowCount: 1, oid: 0, rows: [expect.objectContaining({ id: 1, on: true })] });
  } finally {
    described.restore();
  }
});

it('describes a held statement without result columns once per connection too', async () => {
  const text = 'insert into gadgets (id) values (?)';
  const described = await describes();
  try {
    for (let id = 1; id <= 3; id++)
      await pipelinedTransaction(one, async (trx) => {
        await trx.raw(text, [id]).options({ name: preparedName(trx, text), [SENT_WITH_NEXT]: true });
      });
    expect(described.count()).toBe(1);
    expect(await db.knex('gadgets').orderBy('id').pluck('id')).toEqual([1, 2, 3]);
  } finally {
    described.restore();
  }
});

it('sends every kind of value as pg prepares it', async () => {
  const values: Values = [
    7,
    null,
    new Date('2026-11-26T12:34:56.789Z'),
    { a: [1, { b: 'c' }], d: null },
    ['x', 'y "z"', null, 'a\\b'],
    Buffer.from([0, 1, 254, 255]),
    false,
  ];
  const named = answer(await insert(values, true));
  await one('gadgets').delete();
  const plain = answer(await insert(values, false));
  expect(named).toEqual(plain);
  expect((named.rows as Record<string, unknown>[])[0]).toEqual({
    id: 7,
    name: null,
    at: new Date('2026-11-26T12:34:56.789Z'),
    data: { a: [1, { b: 'c' }], d: null },
    tags: ['x', 'y "z"', null, 'a\\b'],
    blob: Buffer.from([0, 1, 254, 255]),
    on: false,
  });
});

it("fails as pg's Query fails, with PostgreSQL's fields, and rolls back", async () => {
  await insert([1, 'taken', null, null, null, null, null], true);
  for (const held of [false, true]) {
    const err = (await insert([2, 'taken', null, null, null, null, null], true, held).catch((e: unknown) => e)) as Record<string, unknown>;
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', constraint: 'gadgets_name_unique', table: 'gadgets' });
    expect(err.detail).toMatch(/taken/);
  }
  expect(await db.knex('gadgets').pluck('id')).toEqual([1]);
  // The connection goes on: the same statement answers on it.
  expect(answer(await insert([3, 'free', null, null, null, null, null], true)).rowCount).toBe(1);
});

it("leaves a statement with an option of pg's to pg's Query", async () => {
  const result = await pipelinedTransaction(one, (trx) => {
    const text = 'select ?::int as n, ?::text as s';
    return trx.raw(text, [5, 'x']).options({ name: preparedName(trx, text), rowMode: 'array' });
  });
  expect((result as { rows: unknown[] }).rows).toEqual([[5, 'x']]);
});
