import { newKey, startHarness, type Harness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  // Names differ in case only, and repeat: name sorts by lower(name), ties by creation and id.
  for (const name of ['beta', 'Alpha', 'alpha', 'Gamma', 'beta', 'delta', 'Epsilon']) {
    expect((await h.request('POST', '/v1/api_keys', { body: newKey({ name }) })).status).toBe(201);
  }
  const ids = (await h.db.knex('api_keys').where({ team_id: h.team.id }).orderBy('created_at').pluck('id')) as string[];
  await h.db
    .knex('api_keys')
    .whereIn('id', ids.slice(0, 3))
    .update({ last_used_at: new Date('2026-01-02T00:00:00Z') });
  for (const name of ['one', 'two', 'three']) {
    const res = await h.request('POST', '/v1/oauth_applications', {
      body: { data: { type: 'oauth_applications', attributes: { name, scopes: ['ir.incidents:read'] } } },
    });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  await h?.close();
});

const ids = (body: any): string[] => body.data.map((r: any) => r.id);

async function walk(path: string, query: string): Promise<string[]> {
  let page = await h.request('GET', `${path}?${query}&page[size]=2`);
  const seen: string[] = [];
  for (;;) {
    expect(page.status).toBe(200);
    seen.push(...ids(page.body));
    const cursor = page.body.meta.next_cursor;
    if (cursor === undefined) return seen;
    page = await h.request('GET', `${path}?${query}&page[size]=2&page[after]=${cursor}`);
    expect(page.body.meta.total_count).toBeNull();
  }
}

describe('auth lists by cursor', () => {
  it.each(['sort=name', 'sort=-name', 'sort=-last_used_at', 'sort=last_used_at,-name', 'filter[search]=a'])(
    'walk the API keys as one offset page does (%s)',
    async (query) => {
      const all = ids((await h.request('GET', `/v1/api_keys?${query}&page[size]=100`)).body);
      expect(all.length).toBeGreaterThan(2);
      expect(await walk('/v1/api_keys', query)).toEqual(all);
    },
  );

  it('walk the OAuth applications', async () => {
    const all = ids((await h.request('GET', '/v1/oauth_applications?page[size]=100')).body);
    expect(all).toHaveLength(3);
    expect(await walk('/v1/oauth_applications', '')).toEqual(all);
  });

  it('refuse a cursor of another team, filter set or sort', async () => {
    const cursor = (await h.request('GET', '/v1/api_keys?sort=name&page[size]=1')).body.meta.next_cursor;
    for (const [query, as] of [
      ['sort=name', { team_id: h.team.id + 1000 }],
      ['sort=name&filter[kind]=global', undefined],
      ['sort=-name', undefined],
    ] as const) {
      const res = await h.request('GET', `/v1/api_keys?${query}&page[after]=${cursor}`, { as });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'invalid_cursor', source: { parameter: 'page[after]' } });
    }
    const other = await h.request('GET', `/v1/oauth_applications?page[after]=${cursor}`);
    expect(other.status).toBe(400);
  });
});
