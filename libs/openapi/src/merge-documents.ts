import { addComponent, type DocumentInfo, tagOperations } from './assemble-document.js';
import { BEARER, SECURITY_SCHEMES } from './components.js';
import type { Json, OpenApiDocument, PathItem } from './openapi.types.js';

/** One document to merge, and which of its paths to keep (default: all). */
export interface MergeSource {
  /** Names the source in conflict reports. */
  name: string;
  document: OpenApiDocument;
  keepPath?: (path: string) => boolean;
}

export interface MergeResult {
  document: OpenApiDocument;
  /** What could not be merged cleanly; the first source's version was kept. */
  conflicts: string[];
}

/**
 * Several services' documents as one: the kept paths of each, their component schemas
 * and security schemes. A path two sources both keep, or one schema name in two shapes,
 * keeps the first source's and is reported rather than thrown, so a gateway can go on
 * serving the rest of the API while one service is out of step.
 */
export function mergeDocuments(info: DocumentInfo, sources: MergeSource[]): MergeResult {
  const conflicts: string[] = [];
  const paths: Record<string, PathItem> = {};
  const schemas: Json = {};
  const securitySchemes: Json = structuredClone(SECURITY_SCHEMES);
  const owner = new Map<string, string>();
  for (const { name, document, keepPath } of sources) {
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      if (keepPath && !keepPath(path)) continue;
      if (owner.has(path)) {
        conflicts.push(`${path}: served by ${owner.get(path)} and ${name}; kept ${owner.get(path)}'s`);
        continue;
      }
      owner.set(path, name);
      paths[path] = structuredClone(item);
    }
    for (const [key, schema] of Object.entries(document.components?.schemas ?? {})) {
      addComponent(schemas, key, structuredClone(schema), (n) =>
        conflicts.push(`schema ${n}: ${name}'s differs from an earlier source's; kept the first`),
      );
    }
    for (const [key, scheme] of Object.entries(document.components?.securitySchemes ?? {})) {
      addComponent(securitySchemes, key, structuredClone(scheme), (n) =>
        conflicts.push(`security scheme ${n}: ${name}'s differs; kept the first`),
      );
    }
  }
  const document = tagOperations({ openapi: '3.1.0', info, security: BEARER, paths, components: { schemas, securitySchemes } });
  return { document, conflicts };
}
