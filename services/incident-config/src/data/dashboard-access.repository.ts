import type { Knex } from 'knex';
import type { DashboardAccessLookup, DashboardRight } from '../domain/dashboards/dashboard-access.js';

const RIGHTS: DashboardRight[] = ['can_read', 'can_update', 'can_destroy', 'can_authorize'];

/** Rights on a dashboard read from the `dashboard_access` view, over the caller's transaction. */
export function createDashboardAccessRepository(): DashboardAccessLookup {
  return {
    async rightsOn(tx: Knex.Transaction, teamId, dashboardId, subjects) {
      // FOR SHARE: a dashboard deleted meanwhile waits for this transaction to end.
      const exists = await tx('dashboards').where({ team_id: teamId, id: dashboardId }).forShare().first('id');
      if (!exists) return null;
      const rows = (await tx('dashboard_access')
        .where({ team_id: teamId, dashboard_id: dashboardId })
        .where((w) => {
          for (const s of subjects) w.orWhere(s);
        })
        .select(RIGHTS)) as Record<DashboardRight, boolean>[];
      return new Set(RIGHTS.filter((r) => rows.some((row) => row[r])));
    },
  };
}
