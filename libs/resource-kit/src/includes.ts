import type { Principal } from '@firewatch/auth';
import type { ResourceObject } from '@firewatch/jsonapi';
import type { AnyResourceDefinition } from './resource-definition.js';
import type { Row } from './resource-shapes.js';
import { serialize } from './serialize.js';

/** How an include reads a related declaration's records: as a read of that resource. */
export interface RelatedReader {
  /** The records with these ids the caller may see, as a read answers them; 403 when it may not read the resource at all. */
  visibleByIds(principal: Principal, ids: readonly string[]): Promise<ResourceObject[]>;
}

/** The readers of related declarations, by relationship name. */
export type Related = Record<string, RelatedReader>;

/** The `include` names a declaration accepts: its loaders and its relationships with a declaration. */
export function includeNames(def: AnyResourceDefinition): string[] {
  const viaRelationship = Object.entries(def.relationships ?? {})
    .filter(([, r]) => r.resource)
    .map(([name]) => name);
  return [...new Set([...Object.keys(def.includes ?? {}), ...viaRelationship])];
}

/**
 * Builds the `included` member for a set of primary rows: each name through its loader,
 * or through the related declaration's service (its permission, team, visibility, record
 * list and owner groups: an include is a read of that resource), once per type and id as
 * JSON:API requires. A loader authorizes what it loads itself.
 */
export function createIncluder(
  def: AnyResourceDefinition,
  related: Related,
  deps: unknown,
  declaration: (name: string) => AnyResourceDefinition,
) {
  const serializeAs = (name: string, row: Row) => serialize(declaration(name), row);
  const permissionOf = (name: string) => declaration(name).permission;
  return async function included(rows: Row[], names: readonly string[], principal: Principal): Promise<ResourceObject[]> {
    const seen = new Map<string, ResourceObject>();
    for (const name of names) {
      const loader = def.includes?.[name];
      let objects: ResourceObject[];
      if (loader) objects = await loader(rows, { principal, tx: undefined, deps, serializeAs, permissionOf });
      else {
        const rel = def.relationships![name];
        const ids = new Set(
          rows.flatMap((r) => {
            const raw = r[rel.column];
            return (Array.isArray(raw) ? raw : [raw]).filter((v) => v !== null && v !== undefined).map(String);
          }),
        );
        const service = related[name];
        objects = await service.visibleByIds(principal, [...ids]);
      }
      for (const o of objects) seen.set(`${o.type}:${o.id}`, o);
    }
    return [...seen.values()];
  };
}
