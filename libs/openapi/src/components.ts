import type { Json } from './openapi.types.js';

/** The JSON:API media type every `/v1` request body and answer uses. */
export const JSON_API = 'application/vnd.api+json';

/** `security` of an operation that needs a bearer credential (every `/v1` one). */
export const BEARER = [{ bearer_auth: [] }];

/** A reference to a component schema. */
export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** `content` of a request body or response in the JSON:API media type. */
export const jsonApiContent = (schema: Json): Json => ({ content: { [JSON_API]: { schema } } });

const nullable = (type: string): Json => ({ type: [type, 'null'] });

/**
 * The schemas every service's document shares, named as the resource kit references
 * them: the JSON:API errors document, pagination `links` and `meta`, and the one answer
 * that is not JSON:API, the rate limiter's 429 (its text is the specification's).
 */
export const COMMON_SCHEMAS: Json = {
  errors_list: {
    type: 'object',
    required: ['errors'],
    properties: {
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['status', 'title'],
          properties: {
            status: { type: 'string', description: 'The HTTP status code, as a string.' },
            code: { type: 'string', description: 'A stable, machine-readable reason, e.g. `validation_failed`.' },
            title: { type: 'string' },
            detail: { type: 'string' },
            source: {
              type: 'object',
              properties: {
                pointer: { type: 'string', description: 'JSON Pointer to the offending member of the request body.' },
                parameter: { type: 'string', description: 'The offending query parameter.' },
                header: { type: 'string', description: 'The offending request header.' },
              },
            },
          },
        },
      },
    },
  },
  links: {
    type: 'object',
    properties: Object.fromEntries(['self', 'first', 'prev', 'next', 'last'].map((k) => [k, nullable('string')])),
  },
  meta: {
    type: 'object',
    properties: {
      // Null on cursor pages (page[after]), which count nothing.
      ...Object.fromEntries(['current_page', 'next_page', 'prev_page', 'total_count', 'total_pages'].map((k) => [k, nullable('integer')])),
      next_cursor: {
        type: 'string',
        description:
          'Present when there is a next page: pass it as page[after] for the rows after this page, in the same sort and filters.',
      },
      total_count_capped: {
        type: 'boolean',
        enum: [true],
        description:
          'Present when the list is longer than its count bound (10,000 rows, or the end of a deeper page): total_count is then a lower bound, one more than the bound, and total_pages, next and last still lead to the next page.',
      },
    },
  },
  rate_limited: {
    type: 'object',
    required: ['error'],
    properties: { error: { type: 'string', const: 'Rate limit exceeded. Try again later.' } },
  },
};

/** The bearer credential: an API key (`fwk_...`) or an OAuth access token. */
export const SECURITY_SCHEMES: Json = {
  bearer_auth: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (`fwk_...`) or an OAuth 2.0 access token, as `Authorization: Bearer <token>`.',
  },
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed body, or an unknown or invalid query parameter',
  401: 'Missing, unknown, revoked or expired credential',
  403: 'Authenticated, but the credential may not do this',
  404: 'Unknown id, or a record of another team',
  406: 'Accept excludes application/vnd.api+json',
  409: 'Conflict with the current state (a uniqueness rule, a disabled parent)',
  412: 'If-Match names no current entity tag of the record; nothing changed',
  413: 'Request body too large',
  415: 'Content-Type is not application/vnd.api+json',
  422: 'Validation failed; each error names its attribute in source.pointer',
  429: 'Rate limit exceeded (see the X-RateLimit-* headers)',
  502: 'The owning service answered with a broken connection',
  503: 'The owning service is down or not deployed',
  504: 'The owning service did not answer in time',
};

/** One response object per status code: the JSON:API errors document, or the rate limiter's own body for 429. */
export function errorResponses(...codes: number[]): Json {
  return Object.fromEntries(
    codes.map((code) => [
      String(code),
      code === 429
        ? { description: ERROR_DESCRIPTIONS[429], content: { 'application/json': { schema: ref('rate_limited') } } }
        : { description: ERROR_DESCRIPTIONS[code] ?? 'Error', ...jsonApiContent(ref('errors_list')) },
    ]),
  );
}
