import { BadRequestError } from '@firewatch/errors';
import { paginationLinks, parseListQuery, parsePage } from '../src/index.js';

const spec = {
  filters: { name: 'string', created_at: 'date', search: 'search', position: 'integer' } as const,
  sorts: ['name', 'created_at'],
  includes: ['panels'],
};

function error(fn: () => unknown): BadRequestError {
  try {
    fn();
  } catch (err) {
    return err as BadRequestError;
  }
  throw new Error('expected a throw');
}

describe('parseListQuery', () => {
  it('parses filters, sort, include and page', () => {
    const q = parseListQuery(
      {
        'filter[name]': 'prod',
        'filter[name][not_in]': 'a,b',
        'filter[created_at][gte]': '2026-01-01T00:00:00Z',
        'filter[search]': 'x',
        sort: '-created_at,name',
        include: 'panels',
        'page[number]': '2',
        'page[size]': '10',
      },
      spec,
    );
    expect(q.filters).toEqual([
      { field: 'name', op: 'eq', value: 'prod' },
      { field: 'name', op: 'not_in', value: ['a', 'b'] },
      { field: 'created_at', op: 'gte', value: new Date('2026-01-01T00:00:00Z') },
      { field: 'search', op: 'search', value: 'x' },
    ]);
    expect(q.sort).toEqual([
      { field: 'created_at', direction: 'desc' },
      { field: 'name', direction: 'asc' },
    ]);
    expect(q.include).toEqual(['panels']);
    expect(q.page).toEqual({ number: 2, size: 10 });
  });

  it('keeps a sort field at its first mention and drops its repeats', () => {
    const q = parseListQuery({ sort: `name,-created_at,${'-name,name,'.repeat(5000)}-created_at` }, spec);
    expect(q.sort).toEqual([
      { field: 'name', direction: 'asc' },
      { field: 'created_at', direction: 'desc' },
    ]);
    expect(() => parseListQuery({ sort: 'name,name,color' }, spec)).toThrow();
  });

  it("keeps a last repeat that turns the direction: a list's final tie-break (by id) follows the sort's last part", () => {
    const sortOf = (sort: string) => parseListQuery({ sort }, spec).sort;
    expect(sortOf('name,-name')).toEqual([
      { field: 'name', direction: 'asc' },
      { field: 'name', direction: 'desc' },
    ]);
    expect(sortOf('name,-created_at,name,name')).toEqual([
      { field: 'name', direction: 'asc' },
      { field: 'created_at', direction: 'desc' },
      { field: 'name', direction: 'asc' },
    ]);
    expect(sortOf('name,created_at,name')).toEqual([
      { field: 'name', direction: 'asc' },
      { field: 'created_at', direction: 'asc' },
    ]);
  });

  it.each([
    [{ 'filter[color]': 'x' }, 'filter[color]'],
    [{ 'filter[name][gt]': 'x' }, 'filter[name][gt]'],
    [{ 'filter[created_at][gt]': 'yesterday' }, 'filter[created_at][gt]'],
    [{ 'filter[position]': '1.5' }, 'filter[position]'],
    [{ sort: 'color' }, 'sort'],
    [{ include: 'owner' }, 'include'],
    [{ 'page[size]': '0' }, 'page[size]'],
    [{ 'page[size]': '101' }, 'page[size]'],
    [{ 'page[number]': 'abc' }, 'page[number]'],
    [{ foo: 'bar' }, 'foo'],
    [{ 'filter[name]': ['a', 'b'] }, 'filter[name]'],
    [{ 'filter[position]': '99999999999' }, 'filter[position]'],
    [{ 'filter[name]': 'a\u0000' }, 'filter[name]'],
  ])('refuses %j with 400 naming the parameter', (query, parameter) => {
    const err = error(() => parseListQuery(query, spec));
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.source).toEqual({ parameter });
  });

  it("hands an endpoint's own parameters to it, filter[...] names included (GET /v1/oncalls)", () => {
    const q = parseListQuery({ 'filter[user_ids]': '1,2', 'filter[name]': 'x' }, { ...spec, extraParams: ['filter[user_ids]'] });
    expect(q.extra).toEqual({ 'filter[user_ids]': '1,2' });
    expect(q.filters.map((f) => f.field)).toEqual(['name']);
  });
});

describe('uuid_list filters', () => {
  const spec = { filters: { service_ids: 'uuid_list' as const } };
  const id = '0B5E2C7A-1D2E-4F3A-9B8C-7D6E5F4A3B2C';
  it('take comma-separated ids with every operator, lowercased', () => {
    for (const [key, op] of [
      ['filter[service_ids]', 'eq'],
      ['filter[service_ids][not_eq]', 'not_eq'],
      ['filter[service_ids][in]', 'in'],
      ['filter[service_ids][not_in]', 'not_in'],
    ]) {
      expect(parseListQuery({ [key]: `${id},${id.toLowerCase()}` }, spec).filters).toEqual([
        { field: 'service_ids', op, value: [id.toLowerCase(), id.toLowerCase()] },
      ]);
    }
  });
  it('refuse anything but UUIDs, and ranges', () => {
    expect(() => parseListQuery({ 'filter[service_ids]': `${id},api` }, spec)).toThrow(/comma-separated UUIDs/);
    expect(() => parseListQuery({ 'filter[service_ids][gt]': id }, spec)).toThrow(/not supported/);
  });
});

describe('paginationLinks', () => {
  it('builds links and meta keeping other parameters', () => {
    const { links, meta } = paginationLinks(
      '/v1/environments',
      { 'filter[name]': 'a', 'page[size]': '2' },
      { number: 2, size: 2 },
      { total: 5 },
    );
    expect(meta).toEqual({ current_page: 2, next_page: 3, prev_page: 1, total_count: 5, total_pages: 3 });
    expect(links.self).toBe('/v1/environments?filter[name]=a&page[number]=2&page[size]=2');
    expect(links.last).toContain('page[number]=3');
    expect(links.prev).toContain('page[number]=1');
  });

  it('has no next or prev on a single page', () => {
    const { links, meta } = paginationLinks('/x', {}, { number: 1, size: 20 }, { total: 0 });
    expect(links.next).toBeNull();
    expect(links.prev).toBeNull();
    expect(meta.total_pages).toBe(1);
  });

  it('gives a cursor page next_cursor and links.next with page[after], and no totals', () => {
    const query = { 'filter[name]': 'a', 'page[after]': 'abc' };
    const { links, meta } = paginationLinks('/x', query, { number: 1, size: 2, after: 'abc' }, { nextCursor: 'def' });
    expect(meta).toMatchObject({ total_count: null, current_page: null, next_cursor: 'def' });
    expect(links.self).toBe('/x?filter[name]=a&page[after]=abc&page[size]=2');
    expect(links.next).toBe('/x?filter[name]=a&page[after]=def&page[size]=2');
    expect(paginationLinks('/x', query, { number: 1, size: 2, after: 'abc' }, {}).links.next).toBeNull();
  });
});

describe('parsePage', () => {
  it('reads page[after], and refuses it with page[number]', () => {
    expect(parsePage({ 'page[after]': 'abc' }, { defaultSize: 20, maxSize: 100 })).toEqual({ number: 1, size: 20, after: 'abc' });
    expect(() => parsePage({ 'page[after]': 'abc', 'page[number]': '1' }, { defaultSize: 20, maxSize: 100 })).toThrow(/cannot be combined/);
  });
});
