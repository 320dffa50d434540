import { startKitHarness, type KitHarness } from './support/kit-harness.js';

let kit: KitHarness;
beforeAll(async () => {
  kit = await startKitHarness('fw_kit_actions');
});
afterAll(async () => {
  await kit?.close();
});

const tag = (name: string) => ({ data: { type: 'tags', attributes: { name } } });

describe('a collection action', () => {
  it('validates its body with pointers, needs its capability, and runs all or nothing with events', async () => {
    const a = (await kit.call('POST', '/v1/red/tags', tag('a'))).body.data;
    const b = (await kit.call('POST', '/v1/red/tags', tag('b'))).body.data;

    const invalid = await kit.call('POST', '/v1/red/tags/bulk_delete', { ids: ['nope'] });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0].source.pointer).toBe('/ids/0');

    const forbidden = await kit.call('POST', '/v1/red/tags/bulk_delete', { ids: [a.id] }, { capabilities: ['read'] });
    expect(forbidden.status).toBe(403);
    // A record key may not even learn that the action would judge its ids.
    expect((await kit.call('POST', '/v1/red/tags/bulk_delete', { ids: ['nope'] }, { record_ids: [a.id] })).status).toBe(404);

    const before = (await kit.events()).length;
    const partial = await kit.call('POST', '/v1/red/tags/bulk_delete', { ids: [a.id, '00000000-0000-4000-8000-000000000000'] });
    expect(partial.status).toBe(422);
    expect(partial.body.errors[0].source.pointer).toBe('/ids/1');
    expect(await kit.db.knex('tags').whereIn('id', [a.id, b.id])).toHaveLength(2);
    expect(await kit.events()).toHaveLength(before);

    // A collection action works within its path's fixed values: red tags are not blue ones.
    expect((await kit.call('POST', '/v1/blue/tags/bulk_delete', { ids: [a.id] })).status).toBe(422);
    const done = await kit.call('POST', '/v1/red/tags/bulk_delete', { ids: [a.id, b.id] });
    expect(done.status).toBe(200);
    expect(done.body.data.map((t: any) => t.id)).toEqual([a.id, b.id]);
    expect((await kit.events()).slice(before).map((e) => e.type)).toEqual(['tag.deleted', 'tag.deleted']);
  });

  it('registers before the item route, so its path is not read as an id', async () => {
    expect((await kit.call('GET', '/v1/red/tags/bulk_delete')).status).toBe(404);
    expect((await kit.call('POST', '/v1/red/tags/bulk_delete', { ids: [] })).status).toBe(422);
  });
});

describe('an item action', () => {
  const rename = (name: unknown, id?: string) => ({ data: { type: 'tags', ...(id ? { id } : {}), attributes: { name } } });

  it('answers 404 for an unknown id before judging the body, 409 for another data.id, and names its event', async () => {
    const t = (await kit.call('POST', '/v1/red/tags', tag('old'))).body.data;
    expect((await kit.call('PUT', '/v1/tags/00000000-0000-4000-8000-000000000000/rename', rename(7))).status).toBe(404);
    expect((await kit.call('PUT', `/v1/tags/${t.id}/rename`, rename('x', '00000000-0000-4000-8000-000000000000'))).status).toBe(409);
    expect((await kit.call('PUT', `/v1/tags/${t.id}/rename`, rename(7))).status).toBe(422);
    const done = await kit.call('PUT', `/v1/tags/${t.id.toUpperCase()}/rename`, rename('new', t.id.toUpperCase()));
    expect(done.body.data.attributes.name).toBe('new');
    expect((await kit.events()).at(-1)).toMatchObject({ type: 'tag.renamed', data: { id: t.id } });
  });

  it('leaves the record unlocked when it only reads, so a write meanwhile does not wait for it', async () => {
    const t = (await kit.call('POST', '/v1/red/tags', tag('peeked'))).body.data;
    const finished: string[] = [];
    const peek = kit.call('POST', `/v1/tags/${t.id}/peek`).then((r) => {
      finished.push('peek');
      return r;
    });
    await new Promise((r) => setTimeout(r, 100));
    const renamed = await kit.call('PUT', `/v1/tags/${t.id}/rename`, rename('written'));
    finished.push('rename');
    expect(renamed.status).toBe(200);
    expect((await peek).status).toBe(200);
    expect(finished).toEqual(['rename', 'peek']);
  });
});
