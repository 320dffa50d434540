import { startKitHarness, type KitHarness } from './support/kit-harness.js';

// A repeated sort field orders nothing and is dropped (libs/jsonapi parseSort); the order of a
// list must stay what the request said, its last ties (by id) included.
let kit: KitHarness;
beforeAll(async () => {
  kit = await startKitHarness('fw_kit_sort_repeats');
  for (const name of ['beta', 'beta', 'beta', 'alpha', 'alpha'])
    await kit.call('POST', '/v1/boards', { data: { type: 'boards', attributes: { name } } });
});
afterAll(async () => kit?.close());

const ids = async (sort: string): Promise<string[]> =>
  (await kit.call('GET', `/v1/boards?sort=${sort}&page[size]=100`)).body.data.map((r: { id: string }) => r.id);

it.each([
  ['name,-name', 'asc', 'desc'],
  ['-name,name', 'desc', 'asc'],
  ['name,name,name', 'asc', 'asc'],
] as const)('sort=%s orders by name %s, ties by id %s', async (sort, byName, byId) => {
  const expected: string[] = await kit.db.knex('boards').orderBy('name', byName).orderBy('id', byId).pluck('id');
  expect(await ids(sort)).toEqual(expected);
});
