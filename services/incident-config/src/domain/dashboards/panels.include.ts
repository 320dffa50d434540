import { serialize, type IncludeLoader } from '@firewatch/resource-kit';
import { dashboardPanels } from '../resources/dashboard-panels.resource.js';
import type { DashboardPanelsStore } from './dashboard-stores.js';

/**
 * `include=panels` of dashboards: the panels of the dashboards listed, which the caller
 * sees since it sees their dashboard. Built in app.ts over the data layer, because an
 * include loader receives no deps.
 */
export function panelsInclude(store: DashboardPanelsStore): IncludeLoader {
  return async (rows, { principal }) =>
    (await store.of(principal.team_id, rows.map((r) => String(r.id)))).map((row) => serialize(dashboardPanels, row));
}
