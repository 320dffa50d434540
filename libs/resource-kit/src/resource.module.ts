import type { Knex } from 'knex';
import type { Router } from 'express';
import type { AnyResourceDefinition, ResourceDefinition } from './resource-definition.js';
import { createResourceRepository, type ResourceRepository } from './resource.repository.js';
import { mountRoutes, resourceRoutes, type RouteEntry } from './resource.routes.js';
import { createResourceService, type EventWriter, type ResourceService } from './resource.service.js';
import { assertDeclaration } from './resource-paths.js';
import { createCascadeAnnouncer } from './cascade.js';

/** A declaration wired to the database: its service (for hand-written routers) and routes. */
export interface ResourceModule {
  definition: AnyResourceDefinition;
  service: ResourceService;
  routes: RouteEntry[];
  /** This resource's routes alone; a service with several mounts them with `mountResources`. */
  router: Router;
}

/** A computed resource stores nothing; reaching its repository is a declaration bug. */
function noStore(def: AnyResourceDefinition): ResourceRepository {
  return new Proxy({} as ResourceRepository, {
    get: () => () => { throw new Error(`${def.type} is computed (source) and has no table`); },
  });
}

const readOnly: EventWriter = async () => { throw new Error('a read-only service cannot write events'); };

/**
 * A service over `def` for reading only: how a nested resource loads its parent and
 * how `include` loads related records, with their own team, visibility and permissions.
 */
function readService(def: AnyResourceDefinition, knex: Knex, deps: unknown): ResourceService {
  return createResourceService(def, {
    repository: def.table ? createResourceRepository(def, knex, deps) : noStore(def),
    writeEvent: readOnly,
    deps,
    parent: def.parent ? readService(def.parent.resource, knex, deps) : undefined,
    related: {},
  });
}

/**
 * Wires a declaration's repository, service and routes. `deps` reach its hooks, actions
 * and source; `declarations` (the service's others) resolve its `cascades`.
 */
export function createResourceModule<D>(
  definition: ResourceDefinition<D>,
  options: { knex: Knex; writeEvent: EventWriter; deps?: D; declarations?: readonly AnyResourceDefinition[] },
): ResourceModule {
  assertDeclaration(definition);
  const { knex } = options;
  const related = Object.fromEntries(
    Object.entries(definition.relationships ?? {}).flatMap(([name, rel]) => (rel.resource ? [[name, readService(rel.resource, knex, options.deps)]] : [])),
  );
  const service = createResourceService(definition, {
    repository: definition.table ? createResourceRepository(definition, knex, options.deps) : noStore(definition),
    writeEvent: options.writeEvent,
    deps: options.deps,
    parent: definition.parent ? readService(definition.parent.resource, knex, options.deps) : undefined,
    related,
    announceCascade: definition.cascades ? createCascadeAnnouncer(definition, knex, options.writeEvent, options.declarations ?? [], options.deps) : undefined,
  });
  const routes = resourceRoutes(definition, service);
  return { definition, service, routes, router: mountRoutes(routes) };
}

/** One router for all of a service's resources, static paths before `{id}` ones across them. */
export function mountResources(modules: readonly ResourceModule[]): Router {
  return mountRoutes(modules.flatMap((m) => m.routes));
}
