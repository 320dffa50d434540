import { BEARER, COMMON_SCHEMAS, SECURITY_SCHEMES } from './components.js';
import { declareIdempotentWrites } from './idempotency.js';
import { collectionTag, listOperations } from './operations.js';
import type { Json, OpenApiDocument, OpenApiPart, PathItem } from './openapi.types.js';

/** The `info` of a document. */
export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
}

/** Adds `name` → `value` to `into`; `conflict` hears of the same name in another shape. */
export function addComponent(into: Json, name: string, value: unknown, conflict: (name: string) => void): void {
  if (!(name in into)) into[name] = value;
  else if (JSON.stringify(into[name]) !== JSON.stringify(value)) conflict(name);
}

/** Tags every untagged operation with its collection and lists the tags in order of first use. */
export function tagOperations(document: OpenApiDocument): OpenApiDocument {
  const names: string[] = [];
  for (const { path, operation } of listOperations(document)) {
    if (!Array.isArray(operation.tags) || !operation.tags.length) operation.tags = [collectionTag(path)];
    for (const tag of operation.tags as string[]) if (!names.includes(tag)) names.push(tag);
  }
  document.tags = names.map((name) => ({ name }));
  return document;
}

/**
 * One service's OpenAPI 3.1 document from what its routers and kit resources declare,
 * with the shared components (errors document, links, meta), the bearer scheme and
 * `Idempotency-Key` on every write.
 * Throws when two parts declare the same operation or one schema name in two shapes:
 * either is a mistake in the service's code, which its tests then catch.
 */
export function assembleDocument(info: DocumentInfo, parts: OpenApiPart[]): OpenApiDocument {
  const paths: Record<string, PathItem> = {};
  const schemas: Json = structuredClone(COMMON_SCHEMAS);
  const fail = (detail: string) => {
    throw new Error(`OpenAPI document "${info.title}": ${detail}`);
  };
  for (const part of structuredClone(parts)) {
    for (const [path, item] of Object.entries(part.paths as Record<string, PathItem>)) {
      const target = (paths[path] ??= {});
      for (const [method, operation] of Object.entries(item)) {
        if (method in target) fail(`${method.toUpperCase()} ${path} is declared twice`);
        target[method] = operation;
      }
    }
    for (const [name, schema] of Object.entries(part.schemas))
      addComponent(schemas, name, schema, (n) => fail(`schema ${n} is declared twice, differently`));
  }
  declareIdempotentWrites({ paths });
  return tagOperations({
    openapi: '3.1.0',
    info,
    security: BEARER,
    paths,
    components: { schemas, securitySchemes: structuredClone(SECURITY_SCHEMES) },
  });
}
