import type { JsonObject } from './reference-document.js';

/**
 * Shapes the API contract itself gives, for operations the reference document lacks
 * (our own additions, such as `GET /v1/webhooks/event_types`) and for error statuses it
 * does not declare: single-resource and collection documents, and error documents
 * (docs/api-contract.md §2, "Documents" and "Errors"). Where the reference has the same
 * object (links, meta, the error list, included resources) its schema is used, deviations
 * applied.
 */
export type SpecShape =
  /** `attributes`: the (closed) schema of the attributes where our docs list them field by field (docs/on-call.md). */
  | { spec: 'single' | 'collection'; type: string; cite: string; attributes?: JsonObject }
  | { spec: 'errors'; cite: string }
  /** A 200 with no body (the reference's delete of alert re-trigger rules). */
  | { spec: 'empty'; cite: string };

export function specShapeKey(shape: SpecShape): string {
  if (shape.spec === 'errors' || shape.spec === 'empty') return `spec:${shape.spec}`;
  return `spec:${shape.spec}:${shape.type}${shape.attributes ? ':attributes' : ''}`;
}

/** The JSON Schema of `shape`; `componentsId` is the `$id` the reference's components were added under. */
export function specShapeSchema(shape: SpecShape, componentsId: string): JsonObject {
  const component = (name: string) => ({ $ref: `${componentsId}#/$defs/${name}` });
  if (shape.spec === 'errors') return component('errors_list');
  // No JSON document at all: only the absence of a body (undefined) passes.
  if (shape.spec === 'empty') return { not: {} };
  const resource = {
    type: 'object',
    properties: { id: { type: 'string' }, type: { const: shape.type }, attributes: shape.attributes ?? { type: 'object' } },
    required: ['id', 'type', 'attributes'],
  };
  const included = { type: 'array', items: component('jsonapi_included_resource') };
  if (shape.spec === 'single') {
    return { type: 'object', properties: { data: resource, included }, required: ['data'] };
  }
  // A collection's links and meta (docs/api-contract.md §2, Documents): their members are
  // typed, none required, since computed shifts answer meta without links.
  const pageNumber = { type: ['integer', 'null'] };
  const meta = {
    type: 'object',
    properties: {
      current_page: pageNumber,
      next_page: pageNumber,
      prev_page: pageNumber,
      // Null on cursor pages, which count nothing (docs/api-contract.md §2, Query parameters).
      total_count: pageNumber,
      total_pages: pageNumber,
      next_cursor: { type: ['string', 'null'] },
    },
  };
  return {
    type: 'object',
    properties: { data: { type: 'array', items: resource }, links: component('links'), meta, included },
    required: ['data'],
  };
}
