import { createHash } from 'node:crypto';
import { BadRequestError } from '@firewatch/errors';

/** The sort-key values of the last row of a page, as PostgreSQL prints them (null for NULL). */
export type CursorValues = (string | null)[];

const MAX_CURSOR = 4096;

/** A 400 `invalid_cursor` at `page[after]`. */
export function invalidCursor(detail = 'page[after] is not a cursor of this list (its team, filters and sort).'): BadRequestError {
  return new BadRequestError(detail, { source: { parameter: 'page[after]' }, code: 'invalid_cursor' });
}

// Binds a cursor to what it continues: the caller's team and scope, the filters and the sort.
// Not a secret: a forged cursor still reads only the caller's own rows, and a bad value in
// one is a 400 (keysetPage), so the digest only tells a cursor of another list apart.
function digest(binding: string): string {
  return createHash('sha256').update(binding).digest('base64url').slice(0, 22);
}

/** An opaque cursor (base64url) continuing after `values`, for the list `binding` names. */
export function encodeCursor(values: CursorValues, binding: string): string {
  return Buffer.from(JSON.stringify({ d: digest(binding), v: values })).toString('base64url');
}

/** The values of a cursor of the list `binding` names with `arity` sort keys; else 400 `invalid_cursor`. */
export function decodeCursor(raw: string, binding: string, arity: number): CursorValues {
  let parsed: unknown;
  try {
    if (raw.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(raw)) throw invalidCursor();
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('page[after] is not a cursor this API issued.');
  }
  const { d, v } = (parsed ?? {}) as { d?: unknown; v?: unknown };
  const values =
    Array.isArray(v) && v.length === arity && v.every((x) => x === null || typeof x === 'string') ? (v as CursorValues) : undefined;
  if (!values || typeof d !== 'string') throw invalidCursor('page[after] is not a cursor this API issued.');
  if (d !== digest(binding)) throw invalidCursor();
  if (values.some((x) => x?.includes('\u0000'))) throw invalidCursor('page[after] is not a cursor this API issued.');
  return values;
}
