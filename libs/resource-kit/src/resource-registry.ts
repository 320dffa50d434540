import { nameOf, type ResourceDefinition } from './resource-definition.js';
import { assertDeclaration } from './resource-paths.js';
import { parentDeclaration } from './resource-shapes.js';

/**
 * A service's declarations, each found by its name (`name`, else `type`). References
 * between resources (a parent, a relationship's declaration, cascades) are names
 * resolved here, so declarations never import each other.
 */
export interface ResourceRegistry<D = unknown> {
  readonly declarations: readonly ResourceDefinition<D>[];
  /** The declaration named `name`; throws when the service declares none. */
  get(name: string): ResourceDefinition<D>;
}

/** The declaration `def`'s parent names: none, or one (a loaded parent names none). */
function parentsOf(def: ResourceDefinition<never>): string[] {
  const name = parentDeclaration(def.parent);
  return name === undefined ? [] : [name];
}

/** Every declaration name `def` refers to, with what refers to it. */
function referencesOf(def: ResourceDefinition<never>): { name: string; from: string }[] {
  return [
    ...parentsOf(def).map((name) => ({ name, from: 'parent' })),
    ...Object.entries(def.relationships ?? {}).flatMap(([rel, r]) =>
      r.resource ? [{ name: r.resource, from: `relationships.${rel}` }] : [],
    ),
    ...Object.entries(def.children ?? {}).flatMap(([child, c]) =>
      c.announce ? [{ name: c.announce, from: `children.${child}.announce` }] : [],
    ),
    ...(def.cascades ?? []).map((c) => ({ name: c.resource, from: 'cascades' })),
  ];
}

/**
 * Builds a service's registry, checking at start-up what types cannot: every declaration
 * is sound on its own (`assertDeclaration`), names are unique, every reference names a
 * declaration of the registry, and what cascades delete is stored.
 */
export function createResourceRegistry<D>(declarations: readonly ResourceDefinition<D>[]): ResourceRegistry<D> {
  const byName = new Map<string, ResourceDefinition<D>>();
  for (const def of declarations) {
    assertDeclaration(def);
    if (byName.has(nameOf(def))) throw new Error(`two declarations are named ${nameOf(def)}; give one a name`);
    byName.set(nameOf(def), def);
  }
  const get = (name: string): ResourceDefinition<D> => {
    const def = byName.get(name);
    if (!def) throw new Error(`no declaration named ${name} in this registry`);
    return def;
  };
  for (const def of declarations) {
    for (const ref of referencesOf(def)) {
      if (!byName.has(ref.name)) throw new Error(`${nameOf(def)}: ${ref.from} names ${ref.name}, which this service does not declare`);
    }
    for (const link of def.cascades ?? []) {
      if (!get(link.resource).table) throw new Error(`${nameOf(def)}: cascades names ${link.resource}, which stores nothing`);
    }
  }
  // Modules follow parents and cascades recursively when they are wired: a loop would never end.
  assertAcyclic(declarations, 'parent', parentsOf);
  assertAcyclic(declarations, 'cascades', (def) => (def.cascades ?? []).map((c) => c.resource));
  return { declarations, get };
}

/** Throws when following `next` from some declaration leads back to it. */
function assertAcyclic<D>(
  declarations: readonly ResourceDefinition<D>[],
  what: string,
  next: (def: ResourceDefinition<D>) => string[],
): void {
  const byName = new Map(declarations.map((d) => [nameOf(d), d]));
  const done = new Set<string>();
  const visit = (name: string, path: string[]): void => {
    if (path.includes(name)) throw new Error(`${what} go round in a loop: ${[...path, name].join(' -> ')}`);
    if (done.has(name)) return;
    for (const n of next(byName.get(name)!)) visit(n, [...path, name]);
    done.add(name);
  };
  for (const def of declarations) visit(nameOf(def), []);
}

/** A registry whatever its deps, for what only reads declarations (the OpenAPI document). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry of any service's deps, as AnyResourceDefinition
export type AnyResourceRegistry = ResourceRegistry<any>;
