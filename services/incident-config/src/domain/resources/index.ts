import { createResourceRegistry } from '@firewatch/resource-kit';
import type { IncidentConfigResourceDeps } from '../incident-config.deps.js';
import { authorizations } from './authorizations.resource.js';
import { catalogProperties } from './catalog-properties.resource.js';
import { dashboardPanels } from './dashboard-panels.resource.js';
import { dashboards } from './dashboards.resource.js';
import { environments } from './environments.resource.js';
import { formSetConditions } from './form-set-conditions.resource.js';
import { formSets } from './form-sets.resource.js';
import { functionalities } from './functionalities.resource.js';
import { incidentEventServices } from './incident-event-services.resource.js';
import { incidentEvents } from './incident-events.resource.js';
import { incidentRoles } from './incident-roles.resource.js';
import { incidents } from './incidents.resource.js';
import { retrospectiveProcesses } from './retrospective-processes.resource.js';
import { secrets } from './secrets.resource.js';
import { services } from './services.resource.js';

/** Every resource incident-config serves, by name; adding one here mounts its routes, events and OpenAPI entry. */
export const registry = createResourceRegistry<IncidentConfigResourceDeps>([environments, catalogProperties, incidentRoles, services, functionalities, incidents, incidentEvents, incidentEventServices, secrets, formSets, formSetConditions, retrospectiveProcesses, dashboards, dashboardPanels, authorizations]);
