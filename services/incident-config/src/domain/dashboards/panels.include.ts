import type { IncludeLoader } from '@firewatch/resource-kit';
import type { DashboardsDeps } from './dashboard-stores.js';

/**
 * `include=panels` of dashboards: the panels of the dashboards listed, which the caller
 * sees since it sees their dashboard.
 */
export const panelsInclude: IncludeLoader<DashboardsDeps> = async (rows, { principal, deps, serializeAs }) =>
  (
    await deps.dashboardPanels.of(
      principal.team_id,
      rows.map((r) => String(r.id)),
    )
  ).map((row) => serializeAs('dashboard_panels', row));
