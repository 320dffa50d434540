import { HTTP_METHODS, type Json, type OpenApiDocument } from './openapi.types.js';

/** One operation of a document. */
export interface OperationEntry {
  method: (typeof HTTP_METHODS)[number];
  path: string;
  operation: Json;
}

/** Every operation of a document, in document order. */
export function listOperations(document: Pick<OpenApiDocument, 'paths'>): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      if (item[method]) entries.push({ method, path, operation: item[method] });
    }
  }
  return entries;
}

/**
 * The tag an operation is grouped under when it names none: the static segments of its
 * path after `/v1`, up to the first parameter (`/v1/webhooks/endpoints/{id}` →
 * `webhooks/endpoints`), so a collection and its items share one group.
 */
export function collectionTag(path: string): string {
  const segments = path.replace(/^\/v1\//, '').split('/');
  const end = segments.findIndex((s) => s.startsWith('{'));
  return segments.slice(0, end === -1 ? undefined : end).join('/');
}
