import type { Knex } from 'knex';
import type { Express } from 'express';
import type { PrincipalVerifier } from '@firewatch/auth';
import { writeEvent } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import { createServiceApp } from '@firewatch/http';
import { createResourceModule, mountResources } from '@firewatch/resource-kit';
import { createRecordReferencesRepository } from './data/record-references.repository.js';
import type { ReferenceDeps } from './domain/record-references.js';
import { resources } from './domain/resources/index.js';
import { incidentConfigOpenApiDocument } from './http/incident-config.openapi.js';

export interface IncidentConfigDeps {
  knex: Knex;
  logger: Logger;
  principals: PrincipalVerifier;
  readiness?: Record<string, () => Promise<unknown>>;
  bodyLimit?: string;
}

export function createIncidentConfigApp(deps: IncidentConfigDeps): Express {
  const resourceDeps: ReferenceDeps = { references: createRecordReferencesRepository() };
  const modules = resources.map((definition) => createResourceModule(definition, { knex: deps.knex, writeEvent, deps: resourceDeps }));
  return createServiceApp({
    logger: deps.logger,
    principals: deps.principals,
    routers: [mountResources(modules)],
    readiness: deps.readiness,
    bodyLimit: deps.bodyLimit,
    openapi: incidentConfigOpenApiDocument(),
  });
}
