import type { Knex } from 'knex';
import { decodeCursor, encodeCursor, invalidCursor, type CursorValues, type Page } from '@firewatch/jsonapi';

/**
 * One key of a list's order. The last key of an order must be unique and not null (the
 * id, a sequence): it breaks ties, so every row has one place. `nullable`: the column may
 * hold NULL (ascending puts NULLs last, descending first, as PostgreSQL does by default);
 * `lower`: compared case-insensitively, as `lower(column)`.
 */
export interface OrderKey {
  column: string;
  direction: 'asc' | 'desc';
  nullable?: boolean;
  lower?: boolean;
}

export interface ListPageOptions {
  table: string;
  order: readonly OrderKey[];
  page: Page;
  /**
   * What a cursor is bound to besides the order: the team, path and filters (any JSON). A
   * cursor issued for another binding is a 400 `invalid_cursor`.
   */
  binding: unknown;
}

/**
 * A page of rows; `total` on offset pages only (with `totalCapped` when it is the lower
 * bound past `COUNT_CAP`), `nextCursor` whenever there is a next page.
 */
export interface ListPage<T> {
  rows: T[];
  total?: number;
  totalCapped?: boolean;
  nextCursor?: string;
}

const KEY = (i: number) => `__key${i}`;

/**
 * `rows` without the columns a page adds (its keys' text, `__total`): copies holding the
 * row's other columns in the same order. Deleting them instead turned every row into a
 * dictionary-mode object (pg's rows are clones of one template, so V8 cannot take a
 * property back off them), slower to delete from and to read; each copy here starts
 * from one template object, so all have one shape.
 */
function stripped(rows: readonly Record<string, unknown>[], keys: number): Record<string, unknown>[] {
  if (!rows.length) return [];
  const added = new Set(['__total', ...Array.from({ length: keys }, (_, i) => KEY(i))]);
  const columns = Object.keys(rows[0]!).filter((c) => !added.has(c));
  const template: Record<string, unknown> = {};
  for (const c of columns) template[c] = null;
  const out = new Array<Record<string, unknown>>(rows.length);
  for (let j = 0; j < rows.length; j += 1) {
    const row = rows[j]!;
    const copy = { ...template };
    for (let i = 0; i < columns.length; i += 1) copy[columns[i]!] = row[columns[i]!];
    out[j] = copy;
  }
  return out;
}

function expression(knex: Knex, key: OrderKey): string {
  const column = knex.raw('??', [key.column]).toQuery();
  return key.lower ? `lower(${column})` : column;
}

/** An order's SQL: each key's expression, the select list of their text (`__keyN`), the ORDER BY list. */
interface OrderText {
  expressions: string[];
  keys: string;
  orderBy: string;
}

const orderTexts = new WeakMap<object, Map<string, OrderText>>();
/** Orders whose text is kept per knex client (a service lists in a few dozen). */
const MAX_ORDER_TEXTS = 256;
/**
 * Longer orders are written per call and not kept: `sort` may repeat a field, so a client
 * could otherwise fill the cache with orders of thousands of keys (~0.5 MB of text each).
 */
const MAX_KEPT_KEYS = 16;

/**
 * The SQL text of `order`'s parts, written once per knex client and order instead of by
 * knex's builder, a raw for each key, on every page: the same text knex wrote.
 */
function orderText(knex: Knex, order: readonly OrderKey[]): OrderText {
  let texts = orderTexts.get(knex.client);
  if (!texts) orderTexts.set(knex.client, (texts = new Map()));
  const id = order.map((k) => `${k.column}\u0000${k.direction}\u0000${k.lower ? 'lower' : ''}`).join('\u0000');
  let text = texts.get(id);
  if (!text) {
    const expressions = order.map((key) => expression(knex, key));
    text = {
      expressions,
      keys: expressions.map((e, i) => `(${e})::text as ${knex.raw('??', [KEY(i)]).toQuery()}`).join(', '),
      orderBy: order.map((key, i) => `${expressions[i]} ${key.direction} nulls ${key.direction === 'asc' ? 'last' : 'first'}`).join(', '),
    };
    if (texts.size < MAX_ORDER_TEXTS && order.length <= MAX_KEPT_KEYS) texts.set(id, text);
  }
  return text;
}

type Branch = (w: Knex.QueryBuilder) => void;

/**
 * Rows strictly after `values` in `order` (NULLs where ORDER BY puts them), as branches
 * whose union is those rows, each a conjunction an index on (team_id, keys...) serves as
 * a seek: equalities on the keys before one, then that key's bound. The longest tail of
 * keys whose values are not null and that go one way is one branch, a row comparison
 * (when that is the whole order, the seek is a single condition); a row comparison is
 * not true for a row NULL in one of them, so an ascending nullable key of the tail adds
 * the branch of its NULLs (they sort last, after the cursor's value).
 */
function afterBranches(knex: Knex, order: readonly OrderKey[], expressions: readonly string[], values: CursorValues): Branch[] {
  const last = order[order.length - 1]!.direction;
  let tail = order.length;
  while (tail > 0 && values[tail - 1] !== null && order[tail - 1]!.direction === last) tail -= 1;
  const equal = (w: Knex.QueryBuilder, k: number) => {
    for (let j = 0; j < k; j += 1) {
      const v = values[j];
      if (v === null) w.whereNull(order[j]!.column);
      else w.whereRaw(`${expressions[j]} = ?`, [v]);
    }
  };
  const branches: Branch[] = [];
  const bound = (k: number, condition: Branch) =>
    branches.push((w) => {
      equal(w, k);
      condition(w);
    });
  for (let k = 0; k < tail; k += 1) {
    const key = order[k]!;
    const v = values[k];
    const column = expressions[k]!;
    if (key.direction === 'asc') {
      if (v === null) continue; // nothing sorts after NULL (last)
      bound(k, (w) => w.whereRaw(`${column} > ?`, [v]));
      if (key.nullable) bound(k, (w) => w.whereNull(key.column));
    } else if (v === null) bound(k, (w) => w.whereNotNull(key.column));
    else bound(k, (w) => w.whereRaw(`${column} < ?`, [v]));
  }
  const keys = order.slice(tail);
  const columns = expressions.slice(tail).join(', ');
  bound(tail, (w) =>
    w.whereRaw(`(${columns}) ${last === 'asc' ? '>' : '<'} (${keys.map(() => '?').join(', ')})`, values.slice(tail) as string[]),
  );
  for (let k = tail; k < order.length; k += 1) if (order[k]!.nullable && last === 'asc') bound(k, (w) => w.whereNull(order[k]!.column));
  return branches;
}

/**
 * The first `limit` rows of `keyed` (ordered) after the cursor's `values`. One branch is
 * one seek; several (a nullable key) are each a seek of `limit` rows, merged by a
 * UNION ALL under the same order: an OR of them would be no index condition, and the
 * scan would read every row before the cursor.
 */
function rowsAfter(knex: Knex, keyed: Knex.QueryBuilder, table: string, order: readonly OrderKey[], values: CursorValues, limit: number) {
  const text = orderText(knex, order);
  const branches = afterBranches(knex, order, text.expressions, values);
  if (branches.length === 1) return keyed.where(branches[0]!).limit(limit);
  const parts = branches.map((b) => keyed.clone().where(b).limit(limit));
  const merged = knex.select('*').from(knex.raw(`(${parts.map(() => '(?)').join(' union all ')}) as ??`, [...parts, table]));
  return merged.orderByRaw(text.orderBy).limit(limit);
}

/**
 * An offset page counts at most this many rows (or up to its own end, when deeper):
 * `total` is exact up to there and beyond it one more than the bound, a lower bound
 * (`totalCapped`), so that page 1 of a team of 100,000 costs what page 1 of a team of
 * 100 does. Counting 10,001 index entries takes about 2 ms.
 */
const COUNT_CAP = 10_000;

const isDataException = (err: unknown) =>
  typeof (err as { code?: unknown }).code === 'string' && (err as { code: string }).code.startsWith('22');

/**
 * One page of `q` (filtered and scoped, not ordered) in `order`. An offset page
 * (`page[number]`) counts the total in the same round trip, up to a bound (`COUNT_CAP`).
 * A cursor page (`page[after]`) seeks past the cursor's row by its key values and reads
 * one row more than it answers, never counting: its cost does not grow with the collection, and
 * rows inserted or deleted meanwhile neither repeat nor skip others. Both give the cursor
 * after their last row when there is a next page.
 */
export async function listPage<T extends object>(knex: Knex, q: Knex.QueryBuilder, options: ListPageOptions): Promise<ListPage<T>> {
  const { table, order, page } = options;
  const binding = JSON.stringify([options.binding, order]);
  const text = orderText(knex, order);
  const keyed = q.clone().select(`${table}.*`).select(knex.raw(text.keys)).orderByRaw(text.orderBy);
  const cursorOf = (row: Record<string, unknown>) =>
    encodeCursor(
      order.map((_, i) => (row[KEY(i)] ?? null) as string | null),
      binding,
    );
  const strip = (rows: Record<string, unknown>[]) => stripped(rows, order.length) as T[];

  if (page.after !== undefined) {
    const values = decodeCursor(page.after, binding, order.length);
    let rows: Record<string, unknown>[];
    try {
      rows = await rowsAfter(knex, keyed, table, order, values, page.size + 1);
    } catch (err) {
      // A cursor whose values do not fit the columns (edited by hand) is the client's mistake.
      throw isDataException(err) ? invalidCursor('page[after] is not a cursor this API issued.') : err;
    }
    const more = rows.length > page.size;
    const shown = rows.slice(0, page.size);
    const nextCursor = more ? cursorOf(shown[shown.length - 1]!) : undefined;
    return { rows: strip(shown), ...(nextCursor ? { nextCursor } : {}) };
  }

  const offset = (page.number - 1) * page.size;
  const cap = Math.max(COUNT_CAP, offset + page.size);
  // Counting the rows' index entries (no order, no columns), and at most cap + 1 of them.
  const counted = q
    .clone()
    .clearSelect()
    .clearOrder()
    .select(knex.raw('1'))
    .limit(cap + 1);
  const rows = (await keyed
    .select(knex.raw('(select count(*) from (?) as __counted) as __total', [counted]))
    .limit(page.size)
    .offset(offset)) as Record<string, unknown>[];
  let total = rows.length ? Number(rows[0]!.__total) : 0;
  if (!rows.length && page.number > 1) {
    const [{ count }] = (await knex.count({ count: '*' }).from(counted.as('__counted'))) as { count: string | number }[];
    total = Number(count);
  }
  const totalCapped = total > cap;
  const nextCursor = page.number * page.size < total && rows.length ? cursorOf(rows[rows.length - 1]!) : undefined;
  return { rows: strip(rows), total, ...(totalCapped ? { totalCapped } : {}), ...(nextCursor ? { nextCursor } : {}) };
}

const nullability = new WeakMap<Knex, Map<string, Promise<Set<string>>>>();

/** The columns of `table` that may hold NULL, read from the catalog once per table and connection pool. */
export function nullableColumns(knex: Knex, table: string): Promise<Set<string>> {
  let tables = nullability.get(knex);
  if (!tables) nullability.set(knex, (tables = new Map()));
  let found = tables.get(table);
  if (!found) {
    found = knex('information_schema.columns')
      .where({ table_name: table, is_nullable: 'YES' })
      .whereRaw('table_schema = current_schema()')
      .pluck('column_name')
      .then((names: string[]) => new Set(names));
    found.catch(() => tables.delete(table));
    tables.set(table, found);
  }
  return found;
}
