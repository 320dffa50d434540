import type { Knex } from 'knex';
import { applyFilters, type FilterColumns, type OrderKey } from '@firewatch/db';
import type { FilterCondition, SortField } from '@firewatch/jsonapi';

const SORTABLE = new Set(['created_at', 'updated_at', 'name', 'email']);

/** `filter[name]` and `filter[search]` are case-insensitive substrings of the names (and, for search, the email). */
const FILTERS: Record<string, FilterColumns> = {
  name: { kind: 'search', columns: ['name', 'first_name', 'last_name'] },
  search: { kind: 'search', columns: ['name', 'first_name', 'last_name', 'email'] },
  is_service_account: 'boolean',
  created_at: 'date',
  updated_at: 'date',
};

/** Applies parsed `filter[...]` conditions; fields and values were checked by the route already. */
export function applyUserFilters(q: Knex.QueryBuilder, filters: FilterCondition[]): void {
  applyFilters(q, filters, FILTERS);
}

/** The requested fields, then creation and id so pages never overlap (no column sorted here may be NULL). */
export function userOrder(sort: SortField[]): OrderKey[] {
  const requested = sort.map((s) => {
    if (!SORTABLE.has(s.field)) throw new Error(`Unsupported user sort ${s.field}`);
    // Names sort as people read them, whatever the database collation.
    return { column: s.field, direction: s.direction, lower: s.field === 'name' };
  });
  return [...requested, { column: 'created_at', direction: 'asc' }, { column: 'id', direction: 'asc' }];
}
