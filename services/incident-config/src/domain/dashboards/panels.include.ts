import { serialize, type IncludeLoader } from '@firewatch/resource-kit';
import type { DashboardsDeps } from './dashboard-stores.js';

/**
 * `include=panels` of dashboards: the panels of the dashboards listed, which the caller
 * sees since it sees their dashboard.
 */
export const panelsInclude: IncludeLoader<DashboardsDeps> = async (rows, { principal, deps }) => {
  // Imported when first used: the panels' declaration names dashboards as its parent, so a
  // static import here would make the two declarations' evaluation order matter.
  const { dashboardPanels } = await import('../resources/dashboard-panels.resource.js');
  return (await deps.dashboardPanels.of(principal.team_id, rows.map((r) => String(r.id)))).map((row) => serialize(dashboardPanels, row));
};
