import { operationsOf, type AnyResourceDefinition } from './resource-definition.js';
import type { CollectionRoute } from './resource-shapes.js';
import { uniqueAcrossRecords } from './unique-keys.js';

const PARAM = /\{([a-z0-9_]+)\}/g;

/** `/v1/schedules/{schedule_id}/x` → `/v1/schedules/:schedule_id/x` (express). */
export function expressPath(path: string): string {
  return path.replace(PARAM, ':$1');
}

/** The `{param}` names in a path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(PARAM)].map((m) => m[1] as string);
}

/** The collection paths of a declaration. */
export function collectionsOf(def: AnyResourceDefinition): readonly CollectionRoute[] {
  return def.collections ?? [{ path: def.path }];
}

/** The item path, `{path}/{id}`. */
export function itemPathOf(def: AnyResourceDefinition): string {
  return `${def.path}/{id}`;
}

/**
 * Checks at start-up what types cannot: a collection's parameters are bound by the
 * parent, a stored resource names its table, and keys that do not go together.
 */
export function assertDeclaration(def: AnyResourceDefinition): void {
  for (const route of collectionsOf(def)) {
    for (const param of pathParams(route.path)) {
      if (def.parent?.param !== param) throw new Error(`${def.type}: {${param}} in ${route.path} is not bound by parent`);
    }
  }
  if (!def.source && !def.table) throw new Error(`${def.type}: a stored resource needs a table`);
  const ops = operationsOf(def);
  if (def.parent && ops.has('create') && collectionsOf(def).some((r) => !r.path.includes(`{${def.parent!.param}}`))) {
    throw new Error(`${def.type}: every collection path of a creatable child names {${def.parent.param}}`);
  }
  if ((ops.has('create') && !def.create) || (ops.has('update') && !def.update)) throw new Error(`${def.type}: writes need their schemas`);
  for (const [attribute, spec] of Object.entries(def.children ?? {})) {
    // Announced children are announced on create only: an update could not say which changed.
    if (spec.announce && def.update?.shape[spec.input ?? attribute])
      throw new Error(`${def.type}: ${attribute} is announced, so updates may not write it`);
  }
  if ((ops.has('create') || ops.has('update') || ops.has('delete')) && !def.event)
    throw new Error(`${def.type}: writes need an event stem`);
  // Who may update a row is judged from the row alone; update visibility needs the database.
  if (def.writersOnly && def.visibility) throw new Error(`${def.type}: writersOnly cannot be combined with visibility`);
  // A chosen slug would sit on the probed sequence, or meet a hidden record's with a 409.
  if (def.slug?.hidden && (def.create?.shape.slug || def.update?.shape.slug))
    throw new Error(`${def.type}: a slug kept off the sequence (slug.hidden) cannot be written`);
  // A group key sees only its groups' records: a key unique across owner sets would tell it of the others' with a 409.
  for (const [constraint] of def.ownerGroups ? uniqueAcrossRecords(def) : []) {
    if (!constraint.includes('owner_set'))
      throw new Error(
        `${def.type}: with ownerGroups, unique key ${constraint} must be per owner set (an index over it, named *owner_set*)`,
      );
  }
}
