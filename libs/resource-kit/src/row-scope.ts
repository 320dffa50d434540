import type { Knex } from 'knex';
import type { Row, VisibilityClause } from './resource-shapes.js';

/**
 * Which rows of a table one request may touch: its team, column values a path implies
 * (a parent, a catalog), a record-scoped key's list, and narrowings (visibility, owner
 * groups) that each admit a row when any of their clauses does.
 */
export interface RowScope {
  teamId: number;
  where?: Row;
  recordIds?: readonly string[] | null;
  /** Only these ids (an `include` fetching related records). */
  ids?: readonly string[];
  narrowings?: readonly (readonly VisibilityClause[])[];
}

function clause(w: Knex.QueryBuilder, table: string, c: VisibilityClause): void {
  if ('granted' in c) {
    const { table: grants, key, where } = c.granted;
    w.orWhereExists((sub) => sub.select(1).from(grants).whereRaw('??.?? = ??.id', [grants, key, table]).where(where));
  } else if ('equals' in c) {
    if (c.equals === null) w.orWhereNull(`${table}.${c.column}`);
    else w.orWhere(`${table}.${c.column}`, c.equals);
  } else if ('in' in c) {
    w.orWhereIn(`${table}.${c.column}`, [...c.in]);
  } else {
    // A jsonb array sharing an element: `?|` takes a text[] of candidates.
    w.orWhereRaw('??.?? \\?| ?::text[]', [table, c.column, [...c.overlaps]]);
  }
}

/** Narrows `q` over `table` to the rows `scope` admits. */
export function applyScope(q: Knex.QueryBuilder, table: string, scope: RowScope): Knex.QueryBuilder {
  q.where(`${table}.team_id`, scope.teamId);
  for (const [column, value] of Object.entries(scope.where ?? {})) {
    if (Array.isArray(value)) q.whereIn(`${table}.${column}`, value);
    else q.where(`${table}.${column}`, value as never);
  }
  if (scope.recordIds) q.whereIn(`${table}.id`, [...scope.recordIds]);
  if (scope.ids) q.whereIn(`${table}.id`, [...scope.ids]);
  for (const clauses of scope.narrowings ?? []) applyVisibility(q, table, clauses);
  return q;
}

/**
 * Narrows `q` over `table` to the rows one visibility admits (any of its clauses; none
 * admits nothing): for a service's own reads of a declared resource's rows as a caller
 * sees them, such as counting only the incidents the caller may see.
 */
export function applyVisibility(q: Knex.QueryBuilder, table: string, clauses: readonly VisibilityClause[]): Knex.QueryBuilder {
  return q.where((w) => {
    if (!clauses.length) w.whereRaw('false');
    for (const c of clauses) clause(w, table, c);
  });
}
