import type { Knex } from 'knex';
import { applyFilters, type CustomFilter, type OrderKey } from '@firewatch/db';
import type { FilterCondition, SortField } from '@firewatch/jsonapi';

const SORTABLE = new Set(['name', 'kind', 'created_at', 'updated_at', 'expires_at', 'last_used_at']);

/** `active` / `expired` are two views of one condition; false of one is true of the other. */
function whereExpired(q: Knex.QueryBuilder, expired: boolean): void {
  if (expired) q.andWhereRaw('expires_at <= now()');
  else q.andWhereRaw('(expires_at IS NULL OR expires_at > now())');
}

/** The fields that are no plain column comparison; the rest behave as on every list. */
const CUSTOM: Record<string, CustomFilter> = {
  active: (q, { value }) => whereExpired(q, value !== true),
  expired: (q, { value }) => whereExpired(q, value === true),
  // A comma-separated list matches keys acting in any of the groups.
  group_ids: (q, { op, value }) => {
    const ids = (Array.isArray(value) ? value : String(value).split(',')).map((s) => String(s).trim()).filter(Boolean);
    if (op === 'not_eq' || op === 'not_in') q.andWhereRaw("NOT (coalesce(group_ids, '{}') && ?::text[])", [ids]);
    else q.andWhereRaw('group_ids && ?::text[]', [ids]);
  },
};

/** Applies parsed `filter[...]` conditions; fields were checked against the allow-list already. */
export function applyApiKeyFilters(q: Knex.QueryBuilder, filters: FilterCondition[]): void {
  applyFilters(q, filters, {}, CUSTOM);
}

/** The requested fields, then creation and id so pages never overlap; `nullable`: the columns that may be NULL. */
export function apiKeyOrder(sort: SortField[], nullable: ReadonlySet<string>): OrderKey[] {
  const requested = sort.map((s) => {
    if (!SORTABLE.has(s.field)) throw new Error(`Unsupported api key sort ${s.field}`);
    // Names sort as people read them, whatever the database collation.
    return { column: s.field, direction: s.direction, nullable: nullable.has(s.field), lower: s.field === 'name' };
  });
  return [...requested, { column: 'created_at', direction: 'asc' }, { column: 'id', direction: 'asc' }];
}
