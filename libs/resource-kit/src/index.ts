export {
  defineResource,
  ALL_OPERATIONS,
  type ResourceDefinition,
  type FilterSpec,
  type HookContext,
  type IncludeLoader,
  type Operation,
  type Row,
} from './resource-definition.js';
export { createResourceRepository, type ResourceRepository } from './resource.repository.js';
export { createResourceService, type ResourceService, type EventWriter } from './resource.service.js';
export { createResourceRouter, listQuerySpec } from './resource.routes.js';
export { createResourceModule, type ResourceModule } from './resource.module.js';
export { serialize } from './serialize.js';
export { slugify, firstFreeSlug, isUuid, SLUG_PATTERN } from './slug.js';
export { buildOpenApiDocument, resourceOpenApi } from './resource.openapi.js';
