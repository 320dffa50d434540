import type { Express } from 'express';
import { writeEvent } from '@firewatch/events';
import { createKitApp, type KitAppShell } from '@firewatch/kit-service';
import type { SecretBox } from '@firewatch/secret-box';
import { createCatalogPropertiesRepository } from './data/catalog-properties.repository.js';
import { createClassificationsRepository } from './data/classifications.repository.js';
import { createDashboardAccessRepository } from './data/dashboard-access.repository.js';
import { createDashboardDefaultsRepository } from './data/dashboard-defaults.repository.js';
import { createDashboardPanelsRepository } from './data/dashboard-panels.repository.js';
import { createGroupDirectory } from './data/groups.repository.js';
import { createRetrospectiveProcessesRepository } from './data/retrospective-processes.repository.js';
import type { IncidentConfigResourceDeps } from './domain/incident-config.deps.js';
import { registry } from './domain/registry.js';
import { incidentConfigOpenApiDocument } from './http/incident-config.openapi.js';

/** What the incident-config app is given: the kit shell and the secret box. */
export interface IncidentConfigDeps extends KitAppShell {
  /** Seals the values of secrets (SECRET_ENCRYPTION_KEYS). */
  secretBox: SecretBox;
}

export function createIncidentConfigApp(deps: IncidentConfigDeps): Express {
  const resourceDeps: IncidentConfigResourceDeps = {
    catalogProperties: createCatalogPropertiesRepository(),
    secretBox: deps.secretBox,
    retrospectiveProcesses: createRetrospectiveProcessesRepository(),
    writeEvent,
    dashboardAccess: createDashboardAccessRepository(),
    dashboardPanels: createDashboardPanelsRepository(deps.knex),
    dashboardDefaults: createDashboardDefaultsRepository(),
    classifications: createClassificationsRepository(deps.knex),
    groups: createGroupDirectory(),
  };
  return createKitApp(deps, { registry, deps: resourceDeps, openapi: incidentConfigOpenApiDocument() });
}
