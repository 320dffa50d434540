import type { Knex } from 'knex';
import type { FilterCondition, SortField } from '@firewatch/jsonapi';

const DATE_COLUMNS = new Set(['created_at', 'expires_at', 'last_used_at']);
const SORTABLE = new Set(['name', 'kind', 'created_at', 'updated_at', 'expires_at', 'last_used_at']);
const COMPARATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `active` / `expired` are two views of one condition; false of one is true of the other. */
function whereExpired(q: Knex.QueryBuilder, expired: boolean): void {
  if (expired) q.andWhereRaw('expires_at <= now()');
  else q.andWhereRaw('(expires_at IS NULL OR expires_at > now())');
}

function applyOne(q: Knex.QueryBuilder, f: FilterCondition): void {
  const { field, op, value } = f;
  if (field === 'search') {
    q.andWhere('name', 'ilike', `%${escapeLike(String(value))}%`);
  } else if (field === 'active') {
    whereExpired(q, value !== true);
  } else if (field === 'expired') {
    whereExpired(q, value === true);
  } else if (field === 'group_ids') {
    // A comma-separated list matches keys acting in any of the groups.
    const ids = (Array.isArray(value) ? value : String(value).split(',')).map((s) => String(s).trim()).filter(Boolean);
    if (op === 'not_eq' || op === 'not_in') q.andWhereRaw("NOT (coalesce(group_ids, '{}') && ?::text[])", [ids]);
    else q.andWhereRaw('group_ids && ?::text[]', [ids]);
  } else if (DATE_COLUMNS.has(field) && op in COMPARATORS) {
    q.andWhere(field, COMPARATORS[op as keyof typeof COMPARATORS], value as Date);
  } else if (op === 'eq') {
    q.andWhere(field, value as string | number | Date);
  } else if (op === 'not_eq') {
    q.andWhere((w) => w.whereNot(field, value as string | number).orWhereNull(field));
  } else if (op === 'in') {
    q.whereIn(field, value as (string | number)[]);
  } else if (op === 'not_in') {
    q.andWhere((w) => w.whereNotIn(field, value as (string | number)[]).orWhereNull(field));
  } else {
    throw new Error(`Unsupported api key filter ${field} ${op}`);
  }
}

/** Applies parsed `filter[...]` conditions; fields were checked against the allow-list already. */
export function applyApiKeyFilters(q: Knex.QueryBuilder, filters: FilterCondition[]): void {
  for (const f of filters) applyOne(q, f);
}

/** Orders by the requested fields, then by creation and id so pages never overlap. */
export function applyApiKeySort(q: Knex.QueryBuilder, sort: SortField[]): void {
  for (const s of sort) {
    if (!SORTABLE.has(s.field)) throw new Error(`Unsupported api key sort ${s.field}`);
    // Names sort as people read them, whatever the database collation.
    if (s.field === 'name') q.orderByRaw(`lower(name) ${s.direction === 'desc' ? 'desc' : 'asc'}`);
    else q.orderBy(s.field, s.direction);
  }
  q.orderBy('created_at', 'asc').orderBy('id', 'asc');
}
