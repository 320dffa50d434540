import type { Json } from './openapi.types.js';

const ETAG: Json = {
  description: 'The strong entity tag of the answered representation, as this caller sees it; send it back in If-Match or If-None-Match.',
  schema: { type: 'string' },
};

/** `If-None-Match` on a single resource's GET: a matching tag is answered 304. */
export const IF_NONE_MATCH: Json = {
  name: 'If-None-Match',
  in: 'header',
  schema: { type: 'string' },
  description: 'Entity tags (or `*`) of representations the caller holds; when one is current the answer is 304 with no body.',
};

/** `If-Match` on a write to a single resource: a stale tag is answered 412 and changes nothing. */
export const IF_MATCH: Json = {
  name: 'If-Match',
  in: 'header',
  schema: { type: 'string' },
  description:
    'Entity tags (or `*`, any existing record) the record must still have: otherwise 412 `precondition_failed` and nothing changes. Tags compare strongly: a `W/` tag never matches.',
};

/** `response` with the `ETag` header a single resource's answer carries. */
export function taggedResponse(response: Json): Json {
  return { ...response, headers: { ...((response.headers as Json | undefined) ?? {}), ETag: ETAG } };
}

/** The 304 of a GET whose `If-None-Match` named the current tag. */
export const NOT_MODIFIED: Json = {
  '304': { description: 'Not modified: If-None-Match names the current entity tag; no body', headers: { ETag: ETAG } },
};
