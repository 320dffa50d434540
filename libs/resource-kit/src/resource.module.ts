import type { Knex } from 'knex';
import type { Router } from 'express';
import type { ResourceDefinition } from './resource-definition.js';
import { createResourceRepository } from './resource.repository.js';
import { createResourceRouter } from './resource.routes.js';
import { createResourceService, type EventWriter, type ResourceService } from './resource.service.js';

export interface ResourceModule {
  definition: ResourceDefinition;
  service: ResourceService;
  router: Router;
}

/** Wires a declaration's repository, service and routes. */
export function createResourceModule(definition: ResourceDefinition, deps: { knex: Knex; writeEvent: EventWriter }): ResourceModule {
  const repository = createResourceRepository(definition, deps.knex);
  const service = createResourceService(definition, { repository, writeEvent: deps.writeEvent });
  return { definition, service, router: createResourceRouter(definition, service) };
}
