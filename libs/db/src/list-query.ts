import type { Knex } from 'knex';
import type { FilterCondition, FilterKind } from '@firewatch/jsonapi';

/**
 * How a filter field reads the table: its kind, and the column(s) when not the field's
 * name. `array`: a `uuid_list` column that is a PostgreSQL `uuid[]`, not a JSON array.
 */
export type FilterColumns = FilterKind | { kind: FilterKind; column?: string; columns?: string[]; array?: boolean };

/** A field whose condition is no column comparison (an API key's `active`, say). */
export type CustomFilter = (q: Knex.QueryBuilder, condition: FilterCondition) => void;

/** `term` as a LIKE pattern fragment that matches itself only. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function columnsOf(field: string, spec: FilterColumns | undefined): string[] {
  if (spec === undefined || typeof spec === 'string') return [field];
  return spec.columns ?? [spec.column ?? field];
}

const COMPARATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** A JSON array (or `uuid[]`) column holding any (`eq`, `in`) or none (`not_eq`, `not_in`) of the ids. */
function applyListOne(q: Knex.QueryBuilder, c: FilterCondition, column: string, array: boolean): void {
  // `?|` is jsonb's "has any of these strings" (knex needs its `?` escaped); `&&` an array's "overlaps".
  const any = [array ? '?? && ?::uuid[]' : '?? \\?| ?::text[]', [column, c.value as string[]]] as const;
  if (c.op === 'eq' || c.op === 'in') q.whereRaw(...any);
  else q.where((w) => w.whereNull(column).orWhereRaw(`NOT (${any[0]})`, any[1]));
}

function applyOne(q: Knex.QueryBuilder, c: FilterCondition, spec: FilterColumns | undefined): void {
  const kind = spec === undefined ? (typeof c.value === 'string' ? 'string' : undefined) : typeof spec === 'string' ? spec : spec.kind;
  const [column] = columnsOf(c.field, spec);
  if (kind === 'uuid_list') return applyListOne(q, c, column, typeof spec === 'object' && spec.array === true);
  switch (c.op) {
    case 'search': {
      const pattern = `%${escapeLike(String(c.value))}%`;
      q.where((w) => {
        for (const col of columnsOf(c.field === 'search' ? 'name' : c.field, spec)) w.orWhereILike(col, pattern);
      });
      return;
    }
    case 'eq':
      if (kind === 'string') q.whereRaw('lower(??) = lower(?)', [column, c.value as string]);
      else q.where(column, c.value as never);
      return;
    case 'not_eq':
      q.where((w) => w.whereNot(column, c.value as never).orWhereNull(column));
      return;
    case 'in':
      q.whereIn(column, c.value as string[]);
      return;
    case 'not_in':
      q.where((w) => w.whereNotIn(column, c.value as string[]).orWhereNull(column));
      return;
    default:
      q.where(column, COMPARATORS[c.op], c.value as never);
  }
}

/**
 * Applies parsed `filter[...]` conditions (fields already checked against an allow-list)
 * the same way for every list: string equality ignores case, `not_eq`/`not_in` include
 * rows where the column is null, search is a case-insensitive substring over the field's
 * columns (`name` for `filter[search]`). `specs` names each field's kind and columns;
 * without one, a string value compares as a string. `custom` handles the rest.
 */
export function applyFilters(
  q: Knex.QueryBuilder,
  conditions: readonly FilterCondition[],
  specs: Readonly<Record<string, FilterColumns>> = {},
  custom: Readonly<Record<string, CustomFilter>> = {},
): void {
  for (const c of conditions) {
    const own = custom[c.field];
    if (own) own(q, c);
    else applyOne(q, c, specs[c.field]);
  }
}
