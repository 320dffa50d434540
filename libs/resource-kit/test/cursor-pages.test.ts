import { startKitHarness, type KitHarness } from './support/kit-harness.js';

let kit: KitHarness;
beforeAll(async () => {
  kit = await startKitHarness('fw_kit_cursor_pages');
  // Names repeat (ties broken by id) and differ in case; some owners are NULL.
  for (const name of ['beta', 'Alpha', 'gamma', 'alpha', 'Delta', 'beta', 'epsilon', 'zeta']) {
    await kit.call('POST', '/v1/boards', { data: { type: 'boards', attributes: { name } } });
  }
  const ids = (await kit.db.knex('boards').orderBy('created_at').pluck('id')) as string[];
  await kit.db.knex('boards').whereIn('id', [ids[1], ids[4], ids[6]]).update({ owner_user_id: null });
  await kit.db.knex('boards').whereIn('id', [ids[2]]).update({ owner_user_id: 7 });
});
afterAll(async () => {
  await kit?.close();
});

const list = (query: string, principal?: Record<string, unknown>) => kit.call('GET', `/v1/boards?${query}`, undefined, principal);

/** Every id of the list, page by page through meta.next_cursor, from the first offset page. */
async function walk(query: string, size = 3): Promise<string[]> {
  const first = await list(`${query}&page[size]=${size}`);
  expect(first.status).toBe(200);
  const ids = first.body.data.map((r: any) => r.id);
  for (let cursor = first.body.meta.next_cursor; cursor !== undefined;) {
    const page = await list(`${query}&page[size]=${size}&page[after]=${cursor}`);
    expect(page.status).toBe(200);
    expect(page.body.meta.total_count).toBeNull();
    expect(page.body.links.next === null).toBe(page.body.meta.next_cursor === undefined);
    ids.push(...page.body.data.map((r: any) => r.id));
    cursor = page.body.meta.next_cursor;
  }
  return ids;
}

describe('cursor pages', () => {
  it.each([
    'sort=created_at',
    'sort=-created_at',
    'sort=name',
    'sort=-name',
    'sort=owner_user_id',
    'sort=-owner_user_id',
    'sort=name,-owner_user_id',
    'sort=-owner_user_id,name',
    'filter[name]=BETA',
  ])('walk the same rows as one offset page (%s)', async (query) => {
    const all = (await list(`${query}&page[size]=100`)).body.data.map((r: any) => r.id);
    expect(all.length).toBeGreaterThan(1);
    expect(await walk(query)).toEqual(all);
    expect(await walk(query, 1)).toEqual(all);
  });

  it('keep offset totals and add next_cursor on offset pages, and leave it out at the end', async () => {
    const first = await list('page[size]=5');
    expect(first.body.meta).toMatchObject({ total_count: 8, total_pages: 2, next_cursor: expect.any(String) });
    const cursorPage = await list(`page[size]=5&page[after]=${first.body.meta.next_cursor}`);
    expect(cursorPage.body.data).toHaveLength(3);
    expect(cursorPage.body.meta).toEqual({ current_page: null, next_page: null, prev_page: null, total_count: null, total_pages: null });
    expect(cursorPage.body.links.next).toBeNull();
    expect((await list('page[size]=5&page[number]=2')).body.meta.next_cursor).toBeUndefined();
    expect(first.body.links.next).toContain('page[number]=2');
    const second = await list('page[size]=2&page[after]=' + first.body.meta.next_cursor);
    expect(second.body.links.next).toMatch(/page\[after\]=[A-Za-z0-9_-]+/);
  });

  it('neither repeat nor skip surviving rows when rows are inserted and deleted between pages', async () => {
    const before = (await list('sort=name&page[size]=100')).body.data.map((r: any) => r.id);
    const first = await list('sort=name&page[size]=3');
    const seen = first.body.data.map((r: any) => r.id);
    // The page's last row and a row further on go; a row sorting before the cursor and one after it come.
    const gone = [seen[2], before[5]];
    await kit.db.knex('boards').whereIn('id', gone).delete();
    await kit.call('POST', '/v1/boards', { data: { type: 'boards', attributes: { name: 'aardvark' } } });
    const late = (await kit.call('POST', '/v1/boards', { data: { type: 'boards', attributes: { name: 'zzz' } } })).body.data.id;
    const rest: string[] = [];
    for (let cursor = first.body.meta.next_cursor; cursor !== undefined;) {
      const page = await list(`sort=name&page[size]=3&page[after]=${cursor}`);
      expect(page.status).toBe(200);
      rest.push(...page.body.data.map((r: any) => r.id));
      cursor = page.body.meta.next_cursor;
    }
    expect(rest).toEqual([...before.slice(3).filter((id: string) => !gone.includes(id)), late]);
  });

  it('refuse a cursor of another team, filter set or sort, a made-up one, and page[after] with page[number]', async () => {
    const cursor = (await list('sort=name&page[size]=1')).body.meta.next_cursor;
    const refused = async (query: string, principal?: Record<string, unknown>, code = 'invalid_cursor') => {
      const res = await list(query, principal);
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code, source: { parameter: 'page[after]' } });
    };
    expect((await list(`sort=name&page[after]=${cursor}`)).status).toBe(200);
    await refused(`sort=name&page[after]=${cursor}`, { team_id: 2 });
    await refused(`sort=name&filter[name]=beta&page[after]=${cursor}`);
    await refused(`sort=-name&page[after]=${cursor}`);
    await refused(`page[after]=${cursor}`);
    await refused('page[after]=bm90LWEtY3Vyc29y');
    await refused(`page[after]=${Buffer.from('{"d":"x","v":[]}').toString('base64url')}`);
    // The digest binds the list, not the values: values edited to fit no column are a 400, not a 500.
    const edited = JSON.parse(Buffer.from(String((await list('page[size]=1')).body.meta.next_cursor), 'base64url').toString());
    edited.v[0] = 'not a time';
    await refused(`page[after]=${Buffer.from(JSON.stringify(edited)).toString('base64url')}`);
    await refused(`sort=name&page[number]=2&page[after]=${cursor}`, undefined, 'invalid_page');
    await refused('page[after]=', undefined, 'invalid_page');
  });

  it('count a long list up to a bound: past it total_count is a lower bound that still leads to the next page', async () => {
    // 10,250 boards of team 9, by SQL: over COUNT_CAP (10,000).
    await kit.db.knex.raw(
      `insert into boards (team_id, name, slug, is_private, owner_group_ids)
       select 9, 'board ' || g, 'board-' || g, false, '[]' from generate_series(1, 10250) g`,
    );
    const big = (query: string) => list(query, { team_id: 9 });
    const first = await big('page[size]=100');
    expect(first.body.meta).toMatchObject({ total_count: 10_001, total_count_capped: true, total_pages: 101, next_page: 2 });
    // A page past the bound counts to its own end and one more.
    const deep = await big('page[size]=100&page[number]=102');
    expect(deep.body.data).toHaveLength(100);
    expect(deep.body.meta).toMatchObject({ total_count: 10_201, total_count_capped: true, next_page: 103, prev_page: 101 });
    const last = await big('page[size]=100&page[number]=103');
    expect(last.body.data).toHaveLength(50);
    expect(last.body.meta).toMatchObject({ total_count: 10_250, total_pages: 103, next_page: null });
    expect(last.body.meta.total_count_capped).toBeUndefined();
    expect((await big('page[size]=100&page[number]=200')).body.meta).toMatchObject({ total_count: 10_250, total_pages: 103 });
    // A short list's total stays exact, without the flag.
    expect((await list('page[size]=100')).body.meta.total_count_capped).toBeUndefined();
    await kit.db.knex('boards').where({ team_id: 9 }).delete();
  });

  it('are refused on a computed collection, which pages by number only', async () => {
    const board = (await list('page[size]=1')).body.data[0].id;
    const res = await kit.call('GET', `/v1/boards/${board}/tallies?page[after]=abc`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ parameter: 'page[after]' });
  });
});
