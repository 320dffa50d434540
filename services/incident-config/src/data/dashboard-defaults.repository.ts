import type { Knex } from 'knex';
import type { DashboardDefaultsStore } from '../domain/dashboards/dashboard-stores.js';

/** Users' default dashboards, one per user and team. */
export function createDashboardDefaultsRepository(): DashboardDefaultsStore {
  return {
    async set(tx: Knex.Transaction, teamId, userId, dashboardId) {
      await tx('dashboard_defaults')
        .insert({ team_id: teamId, user_id: userId, dashboard_id: dashboardId })
        .onConflict(['team_id', 'user_id'])
        .merge({ dashboard_id: dashboardId, updated_at: tx.fn.now() });
    },
  };
}
