import type { SchemaTarget } from './support/reference-validator.js';
import type { ConformanceContext } from './support/conformance-system.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a row's request is made; every member is optional. */
export interface ConformanceRequest {
  /** Values for the `{name}` placeholders of the row's path. */
  params?: Record<string, string>;
  /** Query string without the `?`, e.g. `filter[name]=a&page[size]=1`. */
  query?: string;
  body?: unknown;
  /** The credential; `null` sends none. Default: the suite's global admin key. */
  token?: string | null;
  /** Further request headers (If-Match, If-None-Match, Idempotency-Key). */
  headers?: Record<string, string>;
}

/** One row of the conformance table: a call through the gateway and what its body must match. */
export interface ConformanceOperation {
  method: HttpMethod;
  /** Our path template, `{name}` for parameters; for a reference target it must be the reference's path. */
  path: string;
  /** What sets this row apart from others on the same path (shown in the test name). */
  variant?: string;
  request?: (ctx: ConformanceContext) => Promise<ConformanceRequest> | ConformanceRequest;
  /** The status our API must answer, whose reference response the body is checked against. */
  status: number;
  /** A reference operation and status; a reference component where the operation declares no body; or a specification shape. */
  schema: SchemaTarget;
  /**
   * Set when `method` is an alias of the reference operation's (PATCH for PUT,
   * docs/decisions.md), so the table check compares paths only.
   */
  aliasOf?: HttpMethod;
  /** A known mismatch not fixed yet, and who must fix it: the row runs as `it.failing`. */
  knownMismatch?: string;
}

/**
 * The 404 rows of an item path (`{id}`): each call, with an id no record has, must
 * answer the reference's 404 body. `calls`: method, reference operationId, request body.
 */
export function unknownIdRows(path: string, calls: [HttpMethod, string, unknown?][]): ConformanceOperation[] {
  return calls.map(([method, reference, body]) => ({
    method,
    path,
    variant: 'unknown id',
    request: (ctx) => ({ params: { id: ctx.unknownId }, body }),
    status: 404,
    schema: { reference, status: 404 },
  }));
}

/** Our additions the reference lacks (docs/api-contract.md §2, Entity tags): a 304 has no body, a 412 is an errors document. */
const ENTITY_TAGS = 'docs/api-contract.md §2 (Entity tags and conditional requests)';

/**
 * The entity-tag rows of an item path: a GET whose If-None-Match names the current tag
 * is a 304 with no body; a write with a stale If-Match is a 412. `create` makes a fresh record;
 * `writes`: method and body of each write.
 */
export function entityTagRows(
  path: string,
  create: (ctx: ConformanceContext) => Promise<string>,
  writes: [HttpMethod, unknown?][],
): ConformanceOperation[] {
  return [
    {
      method: 'GET',
      path,
      variant: 'If-None-Match names the current ETag',
      request: async (ctx) => {
        const id = await create(ctx);
        const read = await ctx.call('GET', fillPath(path, { id }));
        return { params: { id }, headers: { 'if-none-match': String(read.headers.get('etag')) } };
      },
      status: 304,
      schema: { spec: 'empty', cite: ENTITY_TAGS },
    },
    ...writes.map(([method, body]): ConformanceOperation => ({
      method,
      path,
      variant: 'If-Match names a stale ETag',
      request: async (ctx) => ({ params: { id: await create(ctx) }, body, headers: { 'if-match': '"stale"' } }),
      status: 412,
      schema: { spec: 'errors', cite: ENTITY_TAGS },
    })),
  ];
}

/** `{id}` → its value; a placeholder without one is a table bug. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(params[name]);
  });
}

export function describeOperation(op: ConformanceOperation): string {
  const target = op.schema;
  const against =
    'reference' in target
      ? `${target.reference} ${target.status}`
      : 'component' in target
        ? `${target.component} (${target.cite})`
        : `${target.cite} ${target.spec}`;
  return `${op.method} ${op.path}${op.variant ? ` (${op.variant})` : ''} → ${op.status} matches ${against}`;
}
