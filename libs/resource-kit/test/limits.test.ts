import { startKitHarness, type KitHarness } from './support/kit-harness.js';

let kit: KitHarness;
beforeAll(async () => {
  kit = await startKitHarness('fw_kit_limits');
});
afterAll(async () => {
  await kit?.close();
});

const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

describe('a per-parent limit under races', () => {
  it('leaves exactly 50 cards when 60 creates race for one board, and refuses the rest with 422', async () => {
    const board = (await kit.call('POST', '/v1/boards', doc('boards', { name: 'Busy' }))).body.data;
    const other = (await kit.call('POST', '/v1/boards', doc('boards', { name: 'Quiet' }))).body.data;
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => kit.call('POST', `/v1/boards/${board.id}/cards`, doc('cards', { title: `c${i}` }))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(50);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).toEqual(Array(10).fill(422));
    expect(refused[0].body.errors[0]).toMatchObject({ code: 'limit_reached', detail: 'A board holds at most 50 cards.' });
    expect(await kit.db.knex('cards').where({ board_id: board.id })).toHaveLength(50);
    // The limit counts per board.
    expect((await kit.call('POST', `/v1/boards/${other.id}/cards`, doc('cards', { title: 'x' }))).status).toBe(201);
  });
});

describe('generated slugs under races', () => {
  it('gives two concurrent creates of the same name distinct slugs, both created', async () => {
    const [a, b] = await Promise.all([1, 2].map(() => kit.call('POST', '/v1/boards', doc('boards', { name: 'Same Name' }))));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a.body.data.attributes.slug, b.body.data.attributes.slug].sort()).toEqual(['same-name', 'same-name-2']);
  });

  it("probes no slug for a new name: the insert takes the name's own, a round trip less per create", async () => {
    const statements: string[] = [];
    const seen = (q: { sql: string }) => statements.push(q.sql);
    kit.db.knex.on('query', seen);
    try {
      const created = await kit.call('POST', '/v1/boards', doc('boards', { name: 'Fresh Board' }));
      expect(created.status).toBe(201);
      expect(created.body.data.attributes.slug).toBe('fresh-board');
    } finally {
      kit.db.knex.off('query', seen);
    }
    expect(statements.filter((sql) => /^select "slug" from "boards"/.test(sql))).toEqual([]);
    expect(statements.filter((sql) => /^insert into "boards"/.test(sql))).toHaveLength(1);
    // Taken, it is probed and the next of the sequence inserted.
    const again = await kit.call('POST', '/v1/boards', doc('boards', { name: 'Fresh Board' }));
    expect(again.body.data.attributes.slug).toBe('fresh-board-2');
  });

  it('takes the first free suffix past a hundred taken ones, gaps first, whatever other teams hold', async () => {
    // Slugs set directly: a taken run across every batch of candidates (1, 2-11, 12-111,
    // 112-211) with a gap at 117, which another team holds.
    const taken = ['crowd', ...Array.from({ length: 119 }, (_, i) => `crowd-${i + 2}`).filter((s) => s !== 'crowd-117')];
    await kit.db
      .knex('boards')
      .insert(taken.map((slug) => ({ team_id: 1, name: `n-${slug}`, slug, is_private: false, owner_user_id: 1, owner_group_ids: '[]' })));
    await kit.db
      .knex('boards')
      .insert({ team_id: 2, name: 'theirs', slug: 'crowd-117', is_private: false, owner_user_id: 1, owner_group_ids: '[]' });
    const first = await kit.call('POST', '/v1/boards', doc('boards', { name: 'Crowd' }));
    expect(first.body.data.attributes.slug).toBe('crowd-117');
    const next = await kit.call('POST', '/v1/boards', doc('boards', { name: 'Crowd' }));
    expect(next.body.data.attributes.slug).toBe('crowd-121');
  });
});
