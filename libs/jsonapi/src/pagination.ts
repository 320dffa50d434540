import { BadRequestError } from '@firewatch/errors';
import type { Links, Meta } from './document.js';

export interface Page {
  number: number;
  size: number;
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

/** Reads `page[number]` and `page[size]`; bad values are 400, never silently clamped. */
export function parsePage(query: Record<string, unknown>, options: PageOptions): Page {
  const number = query['page[number]'] === undefined ? 1 : positiveInt(query['page[number]'], 'page[number]', 1_000_000);
  const size = query['page[size]'] === undefined ? options.defaultSize : positiveInt(query['page[size]'], 'page[size]', options.maxSize);
  return { number, size };
}

/** `links` and `meta` of a page, keeping every other query parameter of the request. */
export function paginationLinks(baseUrl: string, query: Record<string, unknown>, page: Page, total: number): { links: Links; meta: Meta } {
  const totalPages = Math.max(1, Math.ceil(total / page.size));
  const link = (n: number) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (k !== 'page[number]' && k !== 'page[size]' && typeof v === 'string') params.set(k, v);
    }
    params.set('page[number]', String(n));
    params.set('page[size]', String(page.size));
    return `${baseUrl}?${params.toString().replace(/%5B/g, '[').replace(/%5D/g, ']')}`;
  };
  const next = page.number < totalPages ? page.number + 1 : null;
  const prev = page.number > 1 ? Math.min(page.number - 1, totalPages) : null;
  return {
    links: {
      self: link(page.number),
      first: link(1),
      prev: prev === null ? null : link(prev),
      next: next === null ? null : link(next),
      last: link(totalPages),
    },
    meta: { current_page: page.number, next_page: next, prev_page: prev, total_count: total, total_pages: totalPages },
  };
}
