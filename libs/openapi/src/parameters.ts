import type { Json } from './openapi.types.js';

/** How a list endpoint compares a filter (`@firewatch/jsonapi`'s FilterKind); decides its operators. */
type FilterKind = 'string' | 'date' | 'boolean' | 'integer' | 'uuid' | 'uuid_list' | 'search';

/** The list query an endpoint accepts, in the shape of `@firewatch/jsonapi`'s ListQuerySpec. */
export interface ListParametersSpec {
  filters?: Record<string, FilterKind>;
  sorts?: readonly string[];
  includes?: readonly string[];
  page?: { maxSize: number };
  /** `page[after]` too (stored collections; computed ones page by number only). */
  cursor?: boolean;
}

// The operators besides the bare `filter[x]` (eq, or search) that parseListQuery accepts per kind.
const EXTRA_OPS: Record<FilterKind, readonly string[]> = {
  string: ['not_eq', 'in', 'not_in'],
  uuid: ['not_eq', 'in', 'not_in'],
  uuid_list: ['not_eq', 'in', 'not_in'],
  integer: ['not_eq', 'in', 'not_in', 'gt', 'gte', 'lt', 'lte'],
  date: ['gt', 'gte', 'lt', 'lte'],
  boolean: ['not_eq', 'in', 'not_in'],
  search: [],
};

const VALUE_SCHEMA: Record<FilterKind, Json> = {
  string: { type: 'string' },
  uuid: { type: 'string', format: 'uuid' },
  uuid_list: { type: 'string' },
  integer: { type: 'integer' },
  date: { type: 'string', format: 'date-time' },
  boolean: { type: 'boolean' },
  search: { type: 'string' },
};

const FILTER_HELP: Partial<Record<FilterKind, string>> = {
  search: 'Case-insensitive substring search.',
  uuid_list: 'Comma-separated ids: records holding any of them (not_eq, not_in: none of them).',
};

const query = (name: string, schema: Json, description?: string): Json => ({
  name,
  in: 'query',
  schema,
  ...(description ? { description } : {}),
});

/** A required path parameter. */
export function pathParameter(name: string, description: string): Json {
  return { name, in: 'path', required: true, schema: { type: 'string' }, description };
}

/** `include`, from an allow-list. */
export function includeParameter(allowed: readonly string[]): Json {
  return query('include', { type: 'string' }, `Comma-separated; allowed: ${allowed.join(', ')}.`);
}

/** The query parameters of a list endpoint: page, filters with their operators, sort, include. */
export function listParameters(spec: ListParametersSpec): Json[] {
  const params: Json[] = [
    query('page[number]', { type: 'integer', minimum: 1 }),
    query('page[size]', { type: 'integer', minimum: 1, maximum: spec.page?.maxSize ?? 100 }),
  ];
  if (spec.cursor) {
    params.push(
      query(
        'page[after]',
        { type: 'string' },
        "A cursor from meta.next_cursor: the page after that one's last row, in the same sort and filters (not with page[number]). A cursor page has no totals; a cursor of another list is a 400 invalid_cursor.",
      ),
    );
  }
  for (const [name, kind] of Object.entries(spec.filters ?? {})) {
    params.push(query(`filter[${name}]`, VALUE_SCHEMA[kind], FILTER_HELP[kind]));
    for (const op of EXTRA_OPS[kind]) {
      const list = op === 'in' || op === 'not_in' || kind === 'uuid_list';
      params.push(
        query(`filter[${name}][${op}]`, list ? { type: 'string' } : VALUE_SCHEMA[kind], list ? 'Comma-separated values.' : undefined),
      );
    }
  }
  if (spec.sorts?.length)
    params.push(query('sort', { type: 'string' }, `Comma-separated; allowed: ${spec.sorts.join(', ')}; prefix - for descending.`));
  if (spec.includes?.length) params.push(includeParameter(spec.includes));
  return params;
}
