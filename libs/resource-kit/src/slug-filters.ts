import type { Knex } from 'knex';
import type { CustomFilter, FilterColumns } from '@firewatch/db';
import type { FilterCondition } from '@firewatch/jsonapi';

/**
 * A filter by the slug of a related record (`filter[severity]=sev0` on incidents): the
 * record's `column` names a record of `table` of the same team with that slug. `many`: the
 * column is a JSON array of ids (an incident's `service_ids`), which holds when it names
 * any such record. Parsed as a string filter: `eq` and `not_eq` take one slug, `in` and
 * `not_in` several; slugs compare in lower case, as slugs are written.
 */
export interface SlugOfFilter {
  kind: 'string';
  slugOf: { table: string; column: string; many?: boolean };
}

/** How a filter field reads the table: a column comparison (libs/db), or a related record's slug. */
export type FilterSpec = FilterColumns | SlugOfFilter;

export const isSlugOf = (spec: FilterSpec): spec is SlugOfFilter => typeof spec === 'object' && 'slugOf' in spec;

/** The declaration's filters libs/db applies as they are. */
export function columnFilters(filters: Readonly<Record<string, FilterSpec>>): Record<string, FilterColumns> {
  return Object.fromEntries(Object.entries(filters).filter(([, spec]) => !isSlugOf(spec))) as Record<string, FilterColumns>;
}

/** The slug filters as libs/db's custom filters over `table`, bound to the caller's team. */
export function slugFilters(table: string, filters: Readonly<Record<string, FilterSpec>>, teamId: number): Record<string, CustomFilter> {
  const custom: Record<string, CustomFilter> = {};
  for (const [field, spec] of Object.entries(filters)) {
    if (isSlugOf(spec)) custom[field] = (q, condition) => applySlugOf(q, table, spec.slugOf, teamId, condition);
  }
  return custom;
}

function applySlugOf(q: Knex.QueryBuilder, table: string, related: SlugOfFilter['slugOf'], teamId: number, c: FilterCondition): void {
  const slugs = (Array.isArray(c.value) ? c.value : [c.value]).map((v) => String(v).toLowerCase());
  const negated = c.op === 'not_eq' || c.op === 'not_in';
  const own = `${table}.${related.column}`;
  if (related.many) {
    // jsonb's `?` ("holds this string"), escaped for knex.
    const named = (sub: Knex.QueryBuilder) =>
      sub
        .select(1)
        .from(`${related.table} as r`)
        .where('r.team_id', teamId)
        .whereRaw('r.slug = ANY(?::text[])', [slugs])
        .whereRaw('?? \\? r.id::text', [own]);
    if (negated) q.whereNotExists(named);
    else q.whereExists(named);
    return;
  }
  // Compared as text: a column may keep ids as given (text) where the related table has UUIDs.
  const named = [
    '??::text IN (SELECT id::text FROM ?? WHERE team_id = ? AND slug = ANY(?::text[]))',
    [own, related.table, teamId, slugs],
  ] as const;
  if (negated) q.where((w) => w.whereNull(own).orWhereRaw(`NOT (${named[0]})`, named[1]));
  else q.whereRaw(...named);
}
