import { startKitHarness, type KitHarness } from './support/kit-harness.js';

let kit: KitHarness;
beforeAll(async () => {
  kit = await startKitHarness('fw_kit_nesting');
});
afterAll(async () => {
  await kit?.close();
});

const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

describe('nested collections', () => {
  it('creates and lists under the parent, binds the parent column, and serves items at their own path', async () => {
    const board = (await kit.call('POST', '/v1/boards', doc('boards', { name: 'Ops' }))).body.data;
    const other = (await kit.call('POST', '/v1/boards', doc('boards', { name: 'Dev' }))).body.data;
    const created = await kit.call('POST', `/v1/boards/${board.id}/cards`, doc('cards', { title: 'one' }));
    expect(created.status).toBe(201);
    expect(created.body.data.attributes.board_id).toBe(board.id);
    expect(created.body.data.relationships).toEqual({ board: { data: { id: board.id, type: 'boards' } } });
    await kit.call('POST', `/v1/boards/${other.id}/cards`, doc('cards', { title: 'elsewhere' }));

    const list = await kit.call('GET', `/v1/boards/${board.attributes.slug}/cards`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: any) => c.attributes.title)).toEqual(['one']);
    expect(list.body.links.self).toContain(`/v1/boards/${board.attributes.slug}/cards`);

    const item = await kit.call('GET', `/v1/cards/${created.body.data.id}?include=board`);
    expect(item.body.included).toEqual([expect.objectContaining({ id: board.id, type: 'boards' })]);
  });

  it('answers 404 for a parent of another team, on list and on create, and writes nothing', async () => {
    const board = (await kit.call('POST', '/v1/boards', doc('boards', { name: 'Theirs' }), { team_id: 2 })).body.data;
    expect((await kit.call('GET', `/v1/boards/${board.id}/cards`)).status).toBe(404);
    expect((await kit.call('POST', `/v1/boards/${board.id}/cards`, doc('cards', { title: 'x' }))).status).toBe(404);
    expect(await kit.db.knex('cards').where({ board_id: board.id })).toHaveLength(0);
  });

  it('hides a card whose parent the caller cannot see, and PATCH is its only update verb', async () => {
    const secret = (await kit.call('POST', '/v1/boards', doc('boards', { name: 'Secret', is_private: true }), { user_id: 7 })).body.data;
    const card = (await kit.call('POST', `/v1/boards/${secret.id}/cards`, doc('cards', { title: 'hidden' }), { user_id: 7 })).body.data;
    const hidden = await kit.call('GET', `/v1/cards/${card.id}`, undefined, { user_id: 8 });
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain(secret.id);
    expect(hidden.body.errors[0].detail).toBe(`No card with id "${card.id}".`);
    expect((await kit.call('PATCH', `/v1/cards/${card.id}`, doc('cards', { title: 'y' }), { user_id: 7 })).status).toBe(200);
    expect((await kit.call('PUT', `/v1/cards/${card.id}`, doc('cards', { title: 'z' }), { user_id: 7 })).status).toBe(404);
  });
});

describe('a parent that is no declaration (loaded)', () => {
  const self = { user_id: 7, role: 'user' };
  it('creates and lists under the person load finds, writes its id, and checks it again for each item', async () => {
    const created = await kit.call('POST', '/v1/people/7/notes', doc('notes', { body: 'mine' }), self);
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toMatchObject({ person_id: 7, body: 'mine' });
    const list = await kit.call('GET', '/v1/people/7/notes', undefined, self);
    expect(list.body.data.map((n: any) => n.id)).toEqual([created.body.data.id]);
    kit.deps.parentLoads.length = 0;
    expect((await kit.call('PATCH', `/v1/notes/${created.body.data.id}`, doc('notes', { body: 'edited' }), self)).status).toBe(200);
    expect((await kit.call('GET', `/v1/notes/${created.body.data.id}`, undefined, self)).body.data.attributes.body).toBe('edited');
    expect(kit.deps.parentLoads).toEqual([
      { id: '7', need: 'update', of: 'item' },
      { id: '7', need: 'read', of: 'item' },
    ]);
    kit.deps.parentLoads.length = 0;
    await kit.call('POST', '/v1/people/7/notes', doc('notes', { body: 'again' }), self);
    expect(kit.deps.parentLoads).toEqual([{ id: '7', need: 'update', of: 'collection' }]);
  });

  it('answers its 404 for a person load does not answer, on the collection and on every item under them', async () => {
    const note = (await kit.call('POST', '/v1/people/8/notes', doc('notes', { body: 'theirs' }))).body.data;
    const other = { user_id: 7, role: 'user' };
    for (const [method, path, body] of [
      ['GET', '/v1/people/8/notes'],
      ['POST', '/v1/people/8/notes', doc('notes', { body: 'x' })],
      ['GET', '/v1/people/9/notes'],
      ['GET', `/v1/notes/${note.id}`],
      ['PATCH', `/v1/notes/${note.id}`, doc('notes', { body: 'x' })],
      ['DELETE', `/v1/notes/${note.id}`],
    ] as const) {
      const res = await kit.call(method, path, body, other);
      expect(res.status).toBe(404);
    }
    expect((await kit.call('GET', '/v1/people/9/notes')).body.errors[0].detail).toBe('No person with id "9".');
    expect((await kit.call('GET', `/v1/notes/${note.id}`, undefined, { team_id: 2 })).status).toBe(404);
    expect((await kit.call('DELETE', `/v1/notes/${note.id}`)).status).toBe(200);
  });
});

describe('cascading deletes', () => {
  it('announces each card a deleted board takes with it, before the board', async () => {
    const board = (await kit.call('POST', '/v1/boards', doc('boards', { name: `Doomed ${Date.now()}` }))).body.data;
    const ids = [];
    for (const title of ['a', 'b'])
      ids.push((await kit.call('POST', `/v1/boards/${board.id}/cards`, doc('cards', { title }))).body.data.id);
    const before = (await kit.events()).length;
    expect((await kit.call('DELETE', `/v1/boards/${board.id}`)).status).toBe(200);
    const after = (await kit.events()).slice(before);
    expect(after.map((e) => [e.type, e.data.id])).toEqual([
      ['card.deleted', ids[0]],
      ['card.deleted', ids[1]],
      ['board.deleted', board.id],
    ]);
    expect(await kit.db.knex('cards').whereIn('id', ids)).toHaveLength(0);
  });
});

describe('one resource at several collection paths', () => {
  it('fixes the column each path implies, on create and on list', async () => {
    const red = await kit.call('POST', '/v1/red/tags', doc('tags', { name: 'a' }));
    await kit.call('POST', '/v1/blue/tags', doc('tags', { name: 'b' }));
    expect(red.body.data.attributes.color).toBe('red');
    expect(red.text).not.toContain('/v1/red/tags/');
    expect((await kit.call('GET', '/v1/blue/tags')).body.data.map((t: any) => t.attributes.name)).toEqual(['b']);
    expect((await kit.call('GET', `/v1/tags/${red.body.data.id}`)).body.data.attributes.name).toBe('a');
  });
});

describe('computed sources', () => {
  it('lists from validated parameters under a visible parent, with meta and no links', async () => {
    const board = (await kit.call('POST', '/v1/boards', doc('boards', { name: 'Tally' }))).body.data;
    const res = await kit.call('GET', `/v1/boards/${board.id}/tallies?days=3`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expect.any(Array), meta: { total_count: 3 } });
    expect(res.body.data[2]).toEqual({
      id: `${board.id}-2`,
      type: 'tallies',
      attributes: { day: 2, count: 4 },
      relationships: { board: { data: { id: board.id, type: 'boards' } } },
    });
    expect((await kit.call('GET', `/v1/boards/${board.id}/tallies?days=9`)).body.errors[0].source).toEqual({ parameter: 'days' });
    expect((await kit.call('GET', `/v1/boards/${board.id}/tallies?days=1&x=1`)).status).toBe(400);
  });

  it('includes related records, and on a path that names no parent lists without one', async () => {
    const board = (await kit.call('POST', '/v1/boards', doc('boards', { name: 'Tally included' }))).body.data;
    const nested = await kit.call('GET', `/v1/boards/${board.id}/tallies?days=2&include=board`);
    expect(nested.body.included).toEqual([expect.objectContaining({ id: board.id, type: 'boards' })]);
    const flat = await kit.call('GET', `/v1/tallies?days=1&board=${board.id}&include=board`);
    expect(flat.status).toBe(200);
    expect(flat.body.data[0].id).toBe(`${board.id}-0`);
    expect(flat.body.included.map((b: { id: string }) => b.id)).toEqual([board.id]);
    // Another user's private board is no one else's to include.
    const hidden = (await kit.call('POST', '/v1/boards', doc('boards', { name: 'Tally hidden', is_private: true }), { user_id: 77 })).body
      .data;
    const stranger = await kit.call('GET', `/v1/tallies?days=1&board=${hidden.id}&include=board`);
    expect(stranger.body.included).toBeUndefined();
  });
});
