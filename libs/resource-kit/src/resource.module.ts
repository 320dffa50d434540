import type { Knex } from 'knex';
import { NotFoundError } from '@firewatch/errors';
import { nameOf, type AnyResourceDefinition } from './resource-definition.js';
import type { EventWriter, LoadedParent } from './resource-shapes.js';
import type { ParentAccess } from './resource-access.js';
import type { ResourceRegistry } from './resource-registry.js';
import { createResourceRepository, type ResourceRepository } from './resource.repository.js';
import { mountRoutes, resourceRoutes, type MountedRoutes, type RouteEntry } from './resource.routes.js';
import { createResourceService, type ResourceService } from './resource.service.js';
import { createCascadeAnnouncer } from './cascade.js';

/** A declaration wired to the database: its service (for hand-written routers) and routes. */
export interface ResourceModule {
  definition: AnyResourceDefinition;
  service: ResourceService;
  routes: RouteEntry[];
  /** This resource's routes alone; a service with several mounts them with `mountResources`. */
  router: MountedRoutes;
}

/** What a registry's modules are wired to. */
export interface ModuleOptions<D> {
  knex: Knex;
  writeEvent: EventWriter;
  /** The service's one dependencies object, handed to every hook, action, loader and source. */
  deps: D;
}

/** A computed resource stores nothing; reaching its repository is a declaration bug. */
function noStore(def: AnyResourceDefinition): ResourceRepository {
  return new Proxy({} as ResourceRepository, {
    get: () => () => {
      throw new Error(`${def.type} is computed (source) and has no table`);
    },
  });
}

const readOnly: EventWriter = async () => {
  throw new Error('a read-only service cannot write events');
};

/** A parent the declaration finds itself: what `load` does not answer is a 404. */
function loadedParentAccess<D>(parent: LoadedParent<D>, deps: D): ParentAccess {
  return {
    async visible(tx, principal, id, need = 'read', of = 'collection') {
      const row = await parent.load({ tx, principal, deps, id, need, of });
      if (!row) throw new NotFoundError(`No ${parent.noun} with id "${id}".`);
      return row;
    },
  };
}

/**
 * Wires every declaration of a registry: its repository, service and routes. A nested
 * resource loads its parent, `include` loads related records, and hooks check the ids a
 * write names (`visibleIds`), through read-only services of those declarations (their own
 * team, visibility and permissions); cascades announce the rows of the declarations they name.
 */
export function createResourceModules<D>(registry: ResourceRegistry<D>, options: ModuleOptions<D>): ResourceModule[] {
  const { knex, deps } = options;
  const repositories = new Map<string, ResourceRepository>();
  const repositoryOf = (def: AnyResourceDefinition): ResourceRepository => {
    let repository = repositories.get(nameOf(def));
    if (!repository) repositories.set(nameOf(def), (repository = def.table ? createResourceRepository(def, knex, deps) : noStore(def)));
    return repository;
  };
  const readers = new Map<string, ResourceService>();
  const readerOf = (name: string): ResourceService => {
    let reader = readers.get(name);
    if (!reader) {
      const def = registry.get(name);
      reader = createResourceService(def, {
        repository: repositoryOf(def),
        writeEvent: readOnly,
        deps,
        parent: parentAccessOf(def),
        related: {},
        declaration: registry.get,
        referenced: readerOf,
      });
      readers.set(name, reader);
    }
    return reader;
  };
  const parentAccessOf = (def: AnyResourceDefinition): ParentAccess | undefined => {
    if (!def.parent) return undefined;
    return 'load' in def.parent ? loadedParentAccess(def.parent, deps) : readerOf(def.parent.resource);
  };
  return registry.declarations.map((definition) => {
    const related = Object.fromEntries(
      Object.entries(definition.relationships ?? {}).flatMap(([name, rel]) => (rel.resource ? [[name, readerOf(rel.resource)]] : [])),
    );
    const service = createResourceService(definition, {
      repository: repositoryOf(definition),
      writeEvent: options.writeEvent,
      deps,
      parent: parentAccessOf(definition),
      related,
      declaration: registry.get,
      referenced: readerOf,
      announceCascade: definition.cascades
        ? createCascadeAnnouncer(definition, { declaration: registry.get, writeEvent: options.writeEvent, repositoryOf })
        : undefined,
    });
    const routes = resourceRoutes(definition, service);
    return { definition, service, routes, router: mountRoutes(routes) };
  });
}

/** One handler for all of a service's resources, static paths before `{id}` ones across them. */
export function mountResources(modules: readonly ResourceModule[]): MountedRoutes {
  return mountRoutes(modules.flatMap((m) => m.routes));
}
