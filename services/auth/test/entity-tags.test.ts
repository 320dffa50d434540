import { newKey, startHarness, type Harness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

// Hand-written single resources answer and judge entity tags by the same rule as the kit's
// (libs/jsonapi conditional.ts): a strong tag of what this caller's GET answers.
describe('entity tags on /v1/api_keys/{id}', () => {
  const rename = (id: string, name: string) => ({ data: { type: 'api_keys', id, attributes: { name } } });
  const nameIn = async (id: string) => (await h.db.knex('api_keys').where({ id }).first()).name as string;

  it('GET answers an ETag and 304 for If-None-Match; a stale If-Match is a 412 that changes nothing', async () => {
    const id = (await h.request('POST', '/v1/api_keys', { body: newKey({ name: 'tagged' }) })).body.data.id as string;
    const read = await h.request('GET', `/v1/api_keys/${id}`);
    const etag = read.headers.get('etag') as string;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const cached = await h.request('GET', `/v1/api_keys/${id}`, { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(cached.body).toBeUndefined();
    expect(cached.headers.get('etag')).toBe(etag);

    const updated = await h.request('PUT', `/v1/api_keys/${id}`, { body: rename(id, 'tagged-2'), headers: { 'if-match': etag } });
    expect(updated.status).toBe(200);
    const fresh = updated.headers.get('etag');
    expect(fresh).toBe((await h.request('GET', `/v1/api_keys/${id}`)).headers.get('etag'));
    expect(fresh).not.toBe(etag);

    const stale = await h.request('PUT', `/v1/api_keys/${id}`, { body: rename(id, 'tagged-3'), headers: { 'if-match': etag } });
    expect(stale.status).toBe(412);
    expect(stale.body.errors[0]).toMatchObject({ code: 'precondition_failed', source: { header: 'If-Match' } });
    expect(await nameIn(id)).toBe('tagged-2');
    expect((await h.request('POST', `/v1/api_keys/${id}/rotate`, { headers: { 'if-match': etag } })).status).toBe(412);
    expect((await h.request('DELETE', `/v1/api_keys/${id}`, { headers: { 'if-match': etag } })).status).toBe(412);
    expect((await h.request('GET', `/v1/api_keys/${id}`)).status).toBe(200);

    expect((await h.request('DELETE', `/v1/api_keys/${id}`, { headers: { 'if-match': fresh as string } })).status).toBe(200);
  });

  it('lets one of two writers holding the same tag through', async () => {
    const id = (await h.request('POST', '/v1/api_keys', { body: newKey({ name: 'raced' }) })).body.data.id as string;
    const etag = (await h.request('GET', `/v1/api_keys/${id}`)).headers.get('etag') as string;
    const answers = await Promise.all(
      ['raced-a', 'raced-b'].map((name) =>
        h.request('PUT', `/v1/api_keys/${id}`, { body: rename(id, name), headers: { 'if-match': etag } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
  });
});

describe('entity tags on /v1/oauth_applications/{id} and /v1/users/me', () => {
  it('answer ETags and judge If-Match and If-None-Match', async () => {
    const created = await h.request('POST', '/v1/oauth_applications', {
      body: { data: { type: 'oauth_applications', attributes: { name: 'tagged app', scopes: ['ir.incidents:read'] } } },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const etag = (await h.request('GET', `/v1/oauth_applications/${id}`)).headers.get('etag') as string;
    expect((await h.request('GET', `/v1/oauth_applications/${id}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const body = { data: { type: 'oauth_applications', id, attributes: { name: 'renamed app' } } };
    expect((await h.request('PATCH', `/v1/oauth_applications/${id}`, { body, headers: { 'if-match': '"stale"' } })).status).toBe(412);
    expect((await h.request('DELETE', `/v1/oauth_applications/${id}`, { headers: { 'if-match': '"stale"' } })).status).toBe(412);
    expect((await h.request('PATCH', `/v1/oauth_applications/${id}`, { body, headers: { 'if-match': etag } })).status).toBe(200);

    const me = await h.request('GET', '/v1/users/me');
    const mine = me.headers.get('etag') as string;
    expect(mine).toMatch(/^"[\w-]+"$/);
    expect((await h.request('GET', '/v1/users/me', { headers: { 'if-none-match': mine } })).status).toBe(304);
    // Another caller's answer is another representation, with its own tag.
    expect((await h.request('GET', '/v1/users/me', { as: { user_id: h.team.userId } })).headers.get('etag')).not.toBe(mine);
  });
});
