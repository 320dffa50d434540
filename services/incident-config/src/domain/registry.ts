import { createResourceRegistry } from '@firewatch/resource-kit';
import type { IncidentConfigResourceDeps } from './incident-config.deps.js';
import { catalogProperties } from './catalog/catalog-properties.resource.js';
import { environments } from './catalog/environments.resource.js';
import { functionalities } from './catalog/functionalities.resource.js';
import { services } from './catalog/services.resource.js';
import { authorizations } from './dashboards/authorizations.resource.js';
import { dashboardPanels } from './dashboards/dashboard-panels.resource.js';
import { dashboards } from './dashboards/dashboards.resource.js';
import { incidentTypes } from './classifications/incident-types.resource.js';
import { severities } from './classifications/severities.resource.js';
import { formSetConditions } from './forms/form-set-conditions.resource.js';
import { formSets } from './forms/form-sets.resource.js';
import { incidentRoles } from './incident-roles/incident-roles.resource.js';
import { incidentEventServices } from './incidents/incident-event-services.resource.js';
import { incidentEvents } from './incidents/incident-events.resource.js';
import { incidents } from './incidents/incidents.resource.js';
import { retrospectiveProcesses } from './retrospectives/retrospective-processes.resource.js';
import { secrets } from './secrets/secrets.resource.js';

/** Every resource incident-config serves, by name; adding one here mounts its routes, events and OpenAPI entry. */
export const registry = createResourceRegistry<IncidentConfigResourceDeps>([
  environments,
  catalogProperties,
  incidentRoles,
  services,
  functionalities,
  incidents,
  incidentEvents,
  incidentEventServices,
  secrets,
  formSets,
  formSetConditions,
  retrospectiveProcesses,
  dashboards,
  dashboardPanels,
  authorizations,
  severities,
  incidentTypes,
]);
