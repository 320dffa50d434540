import { BadRequestError } from '@firewatch/errors';
import { type Page, type PageOptions, parsePage } from './pagination.js';

/**
 * How a filterable field is compared; decides which operators it takes. `uuid_list`: a
 * JSON array of ids (an incident's `service_ids`), whose every operator takes
 * comma-separated ids: `eq`/`in` hold when the array has any of them, `not_eq`/`not_in`
 * when it has none.
 */
export type FilterKind = 'string' | 'date' | 'boolean' | 'integer' | 'uuid' | 'uuid_list' | 'search';

type Op = 'eq' | 'not_eq' | 'in' | 'not_in' | 'gt' | 'gte' | 'lt' | 'lte' | 'search';

export interface FilterCondition {
  field: string;
  op: Op;
  value: string | number | boolean | Date | (string | number | boolean)[];
}

export interface SortField {
  field: string;
  direction: 'asc' | 'desc';
}

export interface ListQuerySpec {
  filters?: Record<string, FilterKind>;
  sorts?: readonly string[];
  includes?: readonly string[];
  page?: PageOptions;
  /** Further parameters the endpoint reads itself (e.g. a shifts range). */
  extraParams?: readonly string[];
}

export interface ListQuery {
  filters: FilterCondition[];
  sort: SortField[];
  include: string[];
  page: Page;
  /** The extra parameters as sent: a repeated one (`ids[]=a&ids[]=b`) is an array. */
  extra: Record<string, string | string[]>;
}

const OPS: Record<FilterKind, readonly Op[]> = {
  string: ['eq', 'not_eq', 'in', 'not_in'],
  uuid: ['eq', 'not_eq', 'in', 'not_in'],
  uuid_list: ['eq', 'not_eq', 'in', 'not_in'],
  integer: ['eq', 'not_eq', 'in', 'not_in', 'gt', 'gte', 'lt', 'lte'],
  date: ['eq', 'gt', 'gte', 'lt', 'lte'],
  // The reference filters booleans (a service's alert_broadcast_enabled) with every variant.
  boolean: ['eq', 'not_eq', 'in', 'not_in'],
  search: ['search'],
};

const FILTER_KEY = /^filter\[([a-z0-9_]+)\](?:\[([a-z_]+)\])?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function bad(parameter: string, detail: string, code = 'invalid_parameter'): never {
  throw new BadRequestError(detail, { source: { parameter }, code });
}

function single(query: Record<string, unknown>, key: string): string {
  const value = query[key];
  if (typeof value !== 'string') bad(key, `${key} must be given once, as a string.`);
  // PostgreSQL text cannot hold NUL; refuse it here rather than fail in the database.
  if (value.includes('\u0000')) bad(key, `${key} must not contain NUL characters.`);
  return value;
}

function repeatable(query: Record<string, unknown>, key: string): string | string[] {
  const value = query[key];
  if (!Array.isArray(value)) return single(query, key);
  return value.map((_, i) => single({ [key]: value[i] }, key));
}

function convert(kind: FilterKind, raw: string, parameter: string): string | number | boolean | Date {
  switch (kind) {
    case 'integer':
      // Columns are 32-bit; a larger value is the client's mistake, not a database error.
      if (!/^-?\d{1,10}$/.test(raw) || Math.abs(Number(raw)) > 2_147_483_647) bad(parameter, `${parameter} must be a 32-bit integer.`);
      return Number(raw);
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') bad(parameter, `${parameter} must be true or false.`);
      return raw === 'true';
    case 'date': {
      const date = new Date(raw);
      if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(date.getTime())) bad(parameter, `${parameter} must be an ISO 8601 date-time.`);
      return date;
    }
    case 'uuid':
      if (!UUID.test(raw)) bad(parameter, `${parameter} must be a UUID.`);
      return raw;
    case 'uuid_list':
      if (!UUID.test(raw)) bad(parameter, `${parameter} must be comma-separated UUIDs.`);
      return raw.toLowerCase();
    default:
      return raw;
  }
}

function parseFilter(key: string, raw: string, filters: Record<string, FilterKind>): FilterCondition {
  const match = FILTER_KEY.exec(key);
  const field = match?.[1];
  if (!match || !field || !(field in filters))
    bad(key, `Unknown filter ${key}. Allowed: ${Object.keys(filters).join(', ') || 'none'}.`, 'unknown_filter');
  const kind = filters[field];
  const op = (match[2] ?? (kind === 'search' ? 'search' : 'eq')) as Op;
  if (!OPS[kind].includes(op)) bad(key, `Operator ${op} is not supported for filter[${field}].`, 'unknown_filter');
  if (op === 'in' || op === 'not_in' || kind === 'uuid_list') {
    const values = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!values.length) bad(key, `${key} needs at least one value.`);
    return { field, op, value: values.map((v) => convert(kind, v, key) as string | number | boolean) };
  }
  return { field, op, value: convert(kind, raw, key) };
}

/**
 * A field's first mention decides its place and direction: rows that tie on a field tie on
 * it again, so a repeat orders nothing. Dropping repeats bounds a sort at the declared
 * fields (plus one, below), where `sort=name,name,...` thousands of times would cost SQL
 * text and planning.
 */
function parseSort(raw: string, allowed: readonly string[]): SortField[] {
  const out: SortField[] = [];
  const seen = new Set<string>();
  let last: SortField | undefined;
  for (const part of raw.split(',')) {
    const desc = part.startsWith('-');
    const field = desc ? part.slice(1) : part;
    if (!allowed.includes(field)) bad('sort', `Cannot sort by "${field}". Allowed: ${allowed.join(', ') || 'none'}.`, 'unknown_sort');
    last = { field, direction: desc ? 'desc' : 'asc' };
    if (seen.has(field)) continue;
    seen.add(field);
    out.push(last);
  }
  // Lists break the last ties by id in the direction of the sort's last part: a repeat
  // there that turns the direction is kept, so the order stays what the request said.
  if (last && last !== out[out.length - 1] && last.direction !== out[out.length - 1].direction) out.push(last);
  return out;
}

function parseInclude(raw: string, allowed: readonly string[]): string[] {
  const values = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const v of values) {
    if (!allowed.includes(v)) bad('include', `Cannot include "${v}". Allowed: ${allowed.join(', ') || 'none'}.`, 'unknown_include');
  }
  return [...new Set(values)];
}

/** 400 for any query parameter outside `allowed` (single-resource endpoints). */
export function assertOnlyParams(query: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(query)) {
    if (!allowed.includes(key)) bad(key, `Unknown query parameter ${key}.`, 'unknown_parameter');
  }
}

/**
 * Parses a collection request's query against the endpoint's allow-lists:
 * `filter[...]`, `sort`, `include`, `page[...]`. Anything else, or a value that
 * does not fit, is a 400 naming the parameter.
 */
export function parseListQuery(query: Record<string, unknown>, spec: ListQuerySpec): ListQuery {
  const out: ListQuery = {
    filters: [],
    sort: [],
    include: [],
    page: parsePage(query, spec.page ?? { defaultSize: 20, maxSize: 100 }),
    extra: {},
  };
  for (const key of Object.keys(query)) {
    if (key === 'page[number]' || key === 'page[size]' || key === 'page[after]') continue;
    // A computed collection's own parameters come first: GET /v1/oncalls' filter[...] lists are its own, not stored filters.
    if (spec.extraParams?.includes(key)) out.extra[key] = repeatable(query, key);
    else if (key.startsWith('filter[')) out.filters.push(parseFilter(key, single(query, key), spec.filters ?? {}));
    else if (key === 'sort') out.sort = parseSort(single(query, key), spec.sorts ?? []);
    else if (key === 'include') out.include = parseInclude(single(query, key), spec.includes ?? []);
    else bad(key, `Unknown query parameter ${key}.`, 'unknown_parameter');
  }
  return out;
}
