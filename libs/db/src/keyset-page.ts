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

/** A page of rows; `total` on offset pages only, `nextCursor` whenever there is a next page. */
export interface ListPage<T> {
  rows: T[];
  total?: number;
  nextCursor?: string;
}

const KEY = (i: number) => `__key${i}`;

function expression(knex: Knex, key: OrderKey): string {
  const column = knex.raw('??', [key.column]).toQuery();
  return key.lower ? `lower(${column})` : column;
}

/** Rows strictly after `values` in `order` (NULLs where ORDER BY puts them). */
function after(knex: Knex, q: Knex.QueryBuilder, order: readonly OrderKey[], values: CursorValues): void {
  const sameDirection = order.every((k) => k.direction === order[0]!.direction);
  if (sameDirection && order.every((k, i) => !k.nullable && values[i] !== null)) {
    // A row comparison is an index condition on (team_id, keys...): a page costs the same however deep it is.
    const columns = order.map((k) => expression(knex, k)).join(', ');
    q.whereRaw(`(${columns}) ${order[0]!.direction === 'asc' ? '>' : '<'} (${order.map(() => '?').join(', ')})`, values as string[]);
    return;
  }
  q.where((any) => {
    order.forEach((key, k) => {
      any.orWhere((w) => {
        for (let j = 0; j < k; j += 1) {
          const v = values[j];
          if (v === null) w.whereNull(order[j]!.column);
          else w.whereRaw(`${expression(knex, order[j]!)} = ?`, [v]);
        }
        const v = values[k];
        const column = expression(knex, key);
        if (key.direction === 'asc') {
          if (v === null) w.whereRaw('false');
          else if (key.nullable) w.where((x) => x.whereRaw(`${column} > ?`, [v]).orWhereNull(key.column));
          else w.whereRaw(`${column} > ?`, [v]);
        } else if (v === null) w.whereNotNull(key.column);
        else w.whereRaw(`${column} < ?`, [v]);
      });
    });
  });
}

const isDataException = (err: unknown) =>
  typeof (err as { code?: unknown }).code === 'string' && (err as { code: string }).code.startsWith('22');

/**
 * One page of `q` (filtered and scoped, not ordered) in `order`. An offset page
 * (`page[number]`) counts the total in the same round trip (a window count). A cursor
 * page (`page[after]`) seeks past the cursor's row by its key values and reads one row
 * more than it answers, never counting: its cost does not grow with the collection, and
 * rows inserted or deleted meanwhile neither repeat nor skip others. Both give the cursor
 * after their last row when there is a next page.
 */
export async function listPage<T extends object>(knex: Knex, q: Knex.QueryBuilder, options: ListPageOptions): Promise<ListPage<T>> {
  const { table, order, page } = options;
  const binding = JSON.stringify([options.binding, order]);
  const keyed = q.clone().select(`${table}.*`);
  order.forEach((key, i) => {
    keyed.select(knex.raw(`(${expression(knex, key)})::text as ??`, [KEY(i)]));
    keyed.orderByRaw(`${expression(knex, key)} ${key.direction} nulls ${key.direction === 'asc' ? 'last' : 'first'}`);
  });
  const cursorOf = (row: Record<string, unknown>) =>
    encodeCursor(
      order.map((_, i) => (row[KEY(i)] ?? null) as string | null),
      binding,
    );
  const strip = (rows: Record<string, unknown>[]) => {
    for (const r of rows) {
      for (let i = 0; i < order.length; i += 1) delete r[KEY(i)];
      delete r.__total;
    }
    return rows as T[];
  };

  if (page.after !== undefined) {
    after(knex, keyed, order, decodeCursor(page.after, binding, order.length));
    let rows: Record<string, unknown>[];
    try {
      rows = await keyed.limit(page.size + 1);
    } catch (err) {
      // A cursor whose values do not fit the columns (edited by hand) is the client's mistake.
      throw isDataException(err) ? invalidCursor('page[after] is not a cursor this API issued.') : err;
    }
    const more = rows.length > page.size;
    const shown = rows.slice(0, page.size);
    const nextCursor = more ? cursorOf(shown[shown.length - 1]!) : undefined;
    return { rows: strip(shown), ...(nextCursor ? { nextCursor } : {}) };
  }

  const rows = (await keyed
    .select(knex.raw('count(*) over() as __total'))
    .limit(page.size)
    .offset((page.number - 1) * page.size)) as Record<string, unknown>[];
  let total = rows.length ? Number(rows[0]!.__total) : 0;
  if (!rows.length && page.number > 1) {
    const [{ count }] = (await q.clone().clearOrder().count({ count: '*' })) as { count: string | number }[];
    total = Number(count);
  }
  const nextCursor = page.number * page.size < total && rows.length ? cursorOf(rows[rows.length - 1]!) : undefined;
  return { rows: strip(rows), total, ...(nextCursor ? { nextCursor } : {}) };
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
