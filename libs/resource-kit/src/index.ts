export {
  defineResource,
  nameOf,
  operationsOf,
  ALL_OPERATIONS,
  type AnyResourceDefinition,
  type ResourceDefinition,
  type FilterSpec,
  type SlugOfFilter,
  type HookContext,
  type ResourceHooks,
  type IncludeContext,
  type IncludeLoader,
  type Operation,
} from './resource-definition.js';
export type {
  ActionContext,
  ActionResult,
  ActionSpec,
  ChildSpec,
  CollectionRoute,
  LimitSpec,
  DeclaredParent,
  LoadedParent,
  ParentSpec,
  RelationshipSpec,
  EventWriter,
  ResourceWrites,
  Row,
  SourceSpec,
  Transaction,
  Visibility,
  VisibilityClause,
} from './resource-shapes.js';
export { defineAction } from './resource-shapes.js';
export { createResourceRepository, type ResourceRepository } from './resource.repository.js';
export { createResourceService, type ResourceService } from './resource.service.js';
export { resourceRoutes, mountRoutes, listQuerySpec, type MountedRoutes, type RouteEntry } from './resource.routes.js';
export { createResourceModules, mountResources, type ModuleOptions, type ResourceModule } from './resource.module.js';
export { createResourceRegistry, type AnyResourceRegistry, type ResourceRegistry } from './resource-registry.js';
export { collectionsOf, itemPathOf, pathParams } from './resource-paths.js';
export { jsonValue, serialize } from './serialize.js';
export { asEntityError, changedAttributes, entityErrors, type EntityProblem } from './bulk-entities.js';
export { slugify, slugCandidate, unlistedSlug, isUuid, SLUG_PATTERN } from './slug.js';
export { registryOpenApi } from './resource.openapi.js';
export { applyVisibility } from './row-scope.js';
