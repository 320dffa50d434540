import { startKitHarness, type KitHarness } from './support/kit-harness.js';

let kit: KitHarness;
beforeAll(async () => {
  kit = await startKitHarness('fw_kit_routing');
});
afterAll(async () => {
  await kit?.close();
});

const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

// mountRoutes sends a request to the routes under its first path segment; these are the
// ways express matched a path when every route sat in one router, kept as they were.
describe('routing by first path segment', () => {
  it('matches paths case-insensitively and with a trailing slash, as express does', async () => {
    const board = (await kit.call('POST', '/v1/boards', doc('boards', { name: 'Cased' }))).body.data;
    expect((await kit.call('GET', `/V1/Boards/${board.id}`)).body.data).toEqual(expect.objectContaining({ id: board.id }));
    expect((await kit.call('GET', `/v1/BOARDS/${board.id}/cards`)).status).toBe(200);
    expect((await kit.call('GET', '/v1/boards/')).body.data).toEqual(expect.arrayContaining([expect.objectContaining({ id: board.id })]));
  });

  it('serves HEAD by the GET route, and static paths before {id} across resources', async () => {
    const board = (await kit.call('POST', '/v1/boards', doc('boards', { name: 'Headed' }))).body.data;
    const head = await kit.call('HEAD', `/v1/boards/${board.id}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    // `/v1/red/tags` is a collection of tags, not a `red` resource's item.
    expect((await kit.call('POST', '/v1/red/tags', doc('tags', { name: 'hot' }))).status).toBe(201);
    expect((await kit.call('GET', '/v1/red/tags')).body.data).toEqual([
      expect.objectContaining({ attributes: expect.objectContaining({ name: 'hot', color: 'red' }) }),
    ]);
  });

  it('falls through to 404 route_not_found for an unknown segment, method or encoded segment', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing'],
      ['GET', '/v1'],
      ['POST', '/v1/boards/x/y/z'],
      ['GET', '/v1/b%6Fards'],
    ]) {
      const answer = await kit.call(method, path);
      expect({ method, path, status: answer.status, code: answer.body?.errors?.[0]?.code }).toEqual({
        method,
        path,
        status: 404,
        code: 'route_not_found',
      });
    }
  });
});
