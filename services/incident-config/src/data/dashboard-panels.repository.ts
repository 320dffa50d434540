import type { Knex } from 'knex';
import type { DashboardPanelsStore } from '../domain/dashboards/dashboard-stores.js';

/** Panel copies (inside the duplicating transaction) and the reads of `include=panels`. */
export function createDashboardPanelsRepository(knex: Knex): DashboardPanelsStore {
  return {
    async copy(tx: Knex.Transaction, teamId, fromDashboardId, toDashboardId) {
      // created_at keeps the copies in the originals' order (panels list oldest first).
      await tx.raw(
        `INSERT INTO dashboard_panels (team_id, dashboard_id, name, params, position, created_at)
         SELECT team_id, ?, name, params, position, now() + (row_number() OVER (ORDER BY created_at, id)) * interval '1 microsecond'
           FROM dashboard_panels WHERE team_id = ? AND dashboard_id = ?`,
        [toDashboardId, teamId, fromDashboardId],
      );
    },
    async of(teamId, dashboardIds) {
      if (!dashboardIds.length) return [];
      return knex('dashboard_panels')
        .where('team_id', teamId)
        .whereIn('dashboard_id', [...dashboardIds])
        .orderBy(['created_at', 'id']);
    },
  };
}
