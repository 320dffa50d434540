import { BadRequestError } from '@firewatch/errors';
import type { Links, Meta } from './document.js';

export interface Page {
  number: number;
  size: number;
  /** `page[after]`: a cursor page continuing after the row this cursor names (no offset, no total). */
  after?: string;
}

/**
 * What a list found for a page: the total on offset pages (`totalCapped`: a lower bound,
 * the list being longer than its count's bound), the cursor after its last row when there
 * is a next page.
 */
export interface PageFound {
  total?: number;
  totalCapped?: boolean;
  nextCursor?: string;
}

export interface PageOptions {
  defaultSize: number;
  maxSize: number;
}

function positiveInt(raw: unknown, parameter: string, max?: number): number {
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) {
    throw new BadRequestError(`${parameter} must be a positive integer.`, { source: { parameter }, code: 'invalid_page' });
  }
  const n = Number(raw);
  if (n < 1) throw new BadRequestError(`${parameter} must be at least 1.`, { source: { parameter }, code: 'invalid_page' });
  if (max !== undefined && n > max) {
    throw new BadRequestError(`${parameter} must be at most ${max}.`, { source: { parameter }, code: 'invalid_page' });
  }
  return n;
}

function cursorParam(raw: unknown, query: Record<string, unknown>): string {
  const bad = (detail: string) => new BadRequestError(detail, { source: { parameter: 'page[after]' }, code: 'invalid_page' });
  if (typeof raw !== 'string' || raw === '') throw bad('page[after] must be given once, as a cursor from meta.next_cursor.');
  if (query['page[number]'] !== undefined) throw bad('page[after] and page[number] cannot be combined: a cursor page has no number.');
  return raw;
}

/** Reads `page[number]`, `page[size]` and `page[after]`; bad values are 400, never silently clamped. */
export function parsePage(query: Record<string, unknown>, options: PageOptions): Page {
  const number = query['page[number]'] === undefined ? 1 : positiveInt(query['page[number]'], 'page[number]', 1_000_000);
  const size = query['page[size]'] === undefined ? options.defaultSize : positiveInt(query['page[size]'], 'page[size]', options.maxSize);
  if (query['page[after]'] === undefined) return { number, size };
  return { number, size, after: cursorParam(query['page[after]'], query) };
}

function linkTo(baseUrl: string, query: Record<string, unknown>, page: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (!k.startsWith('page[') && typeof v === 'string') params.set(k, v);
  }
  for (const [k, v] of Object.entries(page)) params.set(k, v);
  return `${baseUrl}?${params.toString().replace(/%5B/g, '[').replace(/%5D/g, ']')}`;
}

/** The `meta` numbers of offset page `page` of a list of `total` rows (a page past the end has the last as its prev). */
export function pageNumbers(page: Pick<Page, 'number' | 'size'>, total: number) {
  const totalPages = Math.max(1, Math.ceil(total / page.size));
  return {
    current_page: page.number,
    next_page: page.number < totalPages ? page.number + 1 : null,
    prev_page: page.number > 1 ? Math.min(page.number - 1, totalPages) : null,
    total_count: total,
    total_pages: totalPages,
  };
}

/**
 * Offset page `page` of a list held in memory (computed, not stored: shifts, on-call
 * entries), each row shaped by `row`, with the `meta` numbers a stored list's page has
 * and no links, as the reference gives such lists.
 */
export function pageOfList<T, R>(items: readonly T[], page: Pick<Page, 'number' | 'size'>, row: (item: T) => R) {
  return {
    rows: items.slice((page.number - 1) * page.size, page.number * page.size).map((item) => row(item)),
    meta: pageNumbers(page, items.length),
  };
}

/**
 * `links` and `meta` of a page, keeping every other query parameter of the request. An
 * offset page has its numbers and totals; a cursor page (`page[after]`) has none, only
 * `links.next`. Both carry `meta.next_cursor` when there is a next page, and leave it out
 * at the end. A capped total (a lower bound) makes `last` the page after the current one
 * at least, and says so in `meta.total_count_capped`.
 */
export function paginationLinks(
  baseUrl: string,
  query: Record<string, unknown>,
  page: Page,
  found: PageFound,
): { links: Links; meta: Meta } {
  const size = String(page.size);
  const cursor = found.nextCursor === undefined ? {} : { next_cursor: found.nextCursor };
  const after = (c: string | undefined) => (c === undefined ? null : linkTo(baseUrl, query, { 'page[after]': c, 'page[size]': size }));
  const numbered = (n: number) => linkTo(baseUrl, query, { 'page[number]': String(n), 'page[size]': size });
  if (page.after !== undefined) {
    return {
      links: { self: after(page.after) ?? numbered(1), first: numbered(1), prev: null, next: after(found.nextCursor), last: null },
      // The reference requires these members; a cursor page has no numbers and counts nothing.
      meta: { current_page: null, next_page: null, prev_page: null, total_count: null, total_pages: null, ...cursor },
    };
  }
  const numbers = pageNumbers(page, found.total ?? 0);
  return {
    links: {
      self: numbered(page.number),
      first: numbered(1),
      prev: numbers.prev_page === null ? null : numbered(numbers.prev_page),
      next: numbers.next_page === null ? null : numbered(numbers.next_page),
      last: numbered(numbers.total_pages),
    },
    meta: {
      ...numbers,
      ...cursor,
      ...(found.totalCapped ? { total_count_capped: true as const } : {}),
    },
  };
}
