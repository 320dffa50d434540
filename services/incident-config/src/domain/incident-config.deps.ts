import type { CatalogPropertiesDeps } from './catalog/catalog-properties.lookup.js';
import type { ClassificationsDeps } from './classifications/classification.lookup.js';
import type { DashboardsDeps } from './dashboards/dashboard-stores.js';
import type { RetrospectiveProcessesDeps } from './retrospectives/retrospective-processes.lookup.js';
import type { SecretsDeps } from './secrets/secrets.resource.js';

/**
 * The one dependencies object incident-config hands its registry: what any of its
 * declarations' hooks, actions and loaders may use. Each declaration names the part it
 * needs; the registry checks that this object holds every part.
 */
export interface IncidentConfigResourceDeps
  extends CatalogPropertiesDeps, SecretsDeps, RetrospectiveProcessesDeps, DashboardsDeps, ClassificationsDeps {}
