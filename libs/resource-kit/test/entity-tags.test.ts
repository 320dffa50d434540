import { createResourceRegistry, registryOpenApi } from '../src/index.js';
import { tags } from './support/fixture.resources.js';
import { startKitHarness, type KitHarness } from './support/kit-harness.js';

let kit: KitHarness;
beforeAll(async () => {
  kit = await startKitHarness('fw_kit_entity_tags');
});
afterAll(async () => {
  await kit?.close();
});

const tag = (name: string) => ({ data: { type: 'tags', attributes: { name } } });
const renamed = (name: string) => ({ data: { type: 'tags', attributes: { name } } });
const created = async (name: string) => (await kit.call('POST', '/v1/red/tags', tag(name))).body.data as { id: string };
const etagOf = async (id: string) => (await kit.call('GET', `/v1/tags/${id}`)).headers.get('etag') as string;
const nameIn = async (id: string) => (await kit.db.knex('tags').where({ id }).first()).name as string;

describe('an item GET', () => {
  it('answers a strong ETag, and 304 with it and no body when If-None-Match names it', async () => {
    const { id } = await created('alpha');
    const first = await kit.call('GET', `/v1/tags/${id}`);
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(await etagOf(id)).toBe(etag);

    for (const sent of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const cached = await kit.call('GET', `/v1/tags/${id}`, undefined, {}, { 'if-none-match': sent });
      expect(cached.status).toBe(304);
      expect(cached.text).toBe('');
      expect(cached.headers.get('etag')).toBe(etag);
    }
    const stale = await kit.call('GET', `/v1/tags/${id}`, undefined, {}, { 'if-none-match': '"other"' });
    expect(stale.status).toBe(200);
    expect(stale.body.data.id).toBe(id);
    // The list has no tag: only single resources do.
    expect((await kit.call('GET', '/v1/red/tags')).headers.get('etag')).toBeNull();
  });
});

describe('a write with If-Match', () => {
  it('is a 412 precondition_failed that changes nothing when the tag is stale, and answers the new tag when current', async () => {
    const { id } = await created('beta');
    const old = await etagOf(id);
    const first = await kit.call('PATCH', `/v1/tags/${id}`, renamed('beta-2'), {}, { 'if-match': old });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe(await etagOf(id));
    expect(first.headers.get('etag')).not.toBe(old);

    const events = (await kit.events()).length;
    const stale = await kit.call('PUT', `/v1/tags/${id}`, renamed('beta-3'), {}, { 'if-match': old });
    expect(stale.status).toBe(412);
    expect(stale.body.errors[0]).toMatchObject({ status: '412', code: 'precondition_failed', source: { header: 'If-Match' } });
    expect(await nameIn(id)).toBe('beta-2');
    expect(await kit.events()).toHaveLength(events);
    // A weak tag never matches If-Match (strong comparison); `*` matches any record.
    expect((await kit.call('PATCH', `/v1/tags/${id}`, renamed('x'), {}, { 'if-match': `W/${await etagOf(id)}` })).status).toBe(412);
    expect((await kit.call('PATCH', `/v1/tags/${id}`, renamed('beta-4'), {}, { 'if-match': '*' })).status).toBe(200);
    expect((await kit.call('PATCH', `/v1/tags/${id}`, renamed('beta-5'))).status).toBe(200);
  });

  it('lets one of two writers holding the same tag through: the other gets 412', async () => {
    const { id } = await created('gamma');
    const etag = await etagOf(id);
    const answers = await Promise.all(
      ['gamma-a', 'gamma-b'].map((name) => kit.call('PATCH', `/v1/tags/${id}`, renamed(name), {}, { 'if-match': etag })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    expect(await nameIn(id)).toBe(winner.body.data.attributes.name);
  });

  it('judges a 404 before the precondition, and guards deletes and item actions that write', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await kit.call('DELETE', `/v1/tags/${unknown}`, undefined, {}, { 'if-match': '"x"' })).status).toBe(404);

    const { id } = await created('delta');
    expect((await kit.call('DELETE', `/v1/tags/${id}`, undefined, {}, { 'if-match': '"x"' })).status).toBe(412);
    expect(await nameIn(id)).toBe('delta');

    expect((await kit.call('PUT', `/v1/tags/${id}/rename`, renamed('delta-2'), {}, { 'if-match': '"x"' })).status).toBe(412);
    expect(await nameIn(id)).toBe('delta');
    const action = await kit.call('PUT', `/v1/tags/${id}/rename`, renamed('delta-2'), {}, { 'if-match': await etagOf(id) });
    expect(action.status).toBe(200);
    expect(action.headers.get('etag')).toBe(await etagOf(id));
    // An action that only reads changes nothing, so it has no precondition to judge.
    expect((await kit.call('POST', `/v1/tags/${id}/peek`, undefined, {}, { 'if-match': '"x"' })).status).toBe(200);

    expect((await kit.call('DELETE', `/v1/tags/${id}`, undefined, {}, { 'if-match': await etagOf(id) })).status).toBe(200);
    expect(await kit.db.knex('tags').where({ id })).toHaveLength(0);
  });
});

describe('the OpenAPI of entity tags', () => {
  const [tagsPart] = registryOpenApi(createResourceRegistry([tags])) as any[];
  const headersOf = (op: any) => op.parameters.filter((p: any) => p.in === 'header').map((p: any) => p.name);

  it('documents ETag, 304 and If-None-Match on the item GET, and If-Match with 412 on the item writes', () => {
    const item = tagsPart.paths['/v1/tags/{id}'];
    expect(headersOf(item.get)).toEqual(['If-None-Match']);
    expect(item.get.responses['200'].headers.ETag).toBeDefined();
    expect(item.get.responses['304'].headers.ETag).toBeDefined();
    for (const op of [item.put, item.patch, item.delete]) {
      expect(headersOf(op)).toEqual(['If-Match']);
      expect(op.responses['412']).toBeDefined();
    }
    expect(item.patch.responses['200'].headers.ETag).toBeDefined();
    expect(headersOf(tagsPart.paths['/v1/tags/{id}/rename'].put)).toEqual(['If-Match']);
    // A read-only action and the list judge no tag.
    expect(headersOf(tagsPart.paths['/v1/tags/{id}/peek'].post)).toEqual([]);
    expect(tagsPart.paths['/v1/red/tags'].get.responses['304']).toBeUndefined();
  });
});
