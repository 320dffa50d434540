import type { Knex } from 'knex';
import type { Express } from 'express';
import type { PrincipalVerifier } from '@firewatch/auth';
import { writeEvent } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import { createServiceApp } from '@firewatch/http';
import { createResourceModules, mountResources } from '@firewatch/resource-kit';
import type { SecretBox } from '@firewatch/secret-box';
import { createCatalogPropertiesRepository } from './data/catalog-properties.repository.js';
import { createRecordReferencesRepository } from './data/record-references.repository.js';
import { createDashboardAccessRepository } from './data/dashboard-access.repository.js';
import { createDashboardDefaultsRepository } from './data/dashboard-defaults.repository.js';
import { createDashboardPanelsRepository } from './data/dashboard-panels.repository.js';
import { createRetrospectiveProcessesRepository } from './data/retrospective-processes.repository.js';
import type { IncidentConfigResourceDeps } from './domain/incident-config.deps.js';
import { registry } from './domain/resources/index.js';
import { incidentConfigOpenApiDocument } from './http/incident-config.openapi.js';

export interface IncidentConfigDeps {
  knex: Knex;
  logger: Logger;
  principals: PrincipalVerifier;
  readiness?: Record<string, () => Promise<unknown>>;
  bodyLimit?: string;
  /** Seals the values of secrets (SECRET_ENCRYPTION_KEYS). */
  secretBox: SecretBox;
}

export function createIncidentConfigApp(deps: IncidentConfigDeps): Express {
  const resourceDeps: IncidentConfigResourceDeps = {
    catalogProperties: createCatalogPropertiesRepository(),
    references: createRecordReferencesRepository(),
    secretBox: deps.secretBox,
    retrospectiveProcesses: createRetrospectiveProcessesRepository(),
    writeEvent,
    dashboardAccess: createDashboardAccessRepository(),
    dashboardPanels: createDashboardPanelsRepository(deps.knex),
    dashboardDefaults: createDashboardDefaultsRepository(),
  };
  const modules = createResourceModules(registry, { knex: deps.knex, writeEvent, deps: resourceDeps });
  return createServiceApp({
    logger: deps.logger,
    principals: deps.principals,
    routers: [mountResources(modules)],
    readiness: deps.readiness,
    bodyLimit: deps.bodyLimit,
    openapi: incidentConfigOpenApiDocument(),
  });
}
