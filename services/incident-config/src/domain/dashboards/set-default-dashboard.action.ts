import { ValidationError } from '@firewatch/errors';
import { defineAction, type Row } from '@firewatch/resource-kit';
import type { DashboardsDeps } from './dashboard-stores.js';

/**
 * `POST /v1/dashboards/{id}/set_default`: the caller's user's default dashboard becomes
 * this one, which it must see. A default is a user's preference, not a change to the
 * dashboard: it answers the dashboard unchanged and emits no event.
 */
export const setDefaultDashboardAction = defineAction<DashboardsDeps>({
  name: 'set_default',
  on: 'item',
  capabilities: ['read'],
  response: { status: 200, description: "The dashboard, now the caller's default" },
  summary: "Make a dashboard the caller's default",
  async run({ principal, tx, deps, record, resource }) {
    const dashboard = record as Row;
    if (principal.user_id === null) {
      throw new ValidationError([
        { pointer: '/data', code: 'no_user', detail: 'This credential acts for no user, so it has no default dashboard.' },
      ]);
    }
    await deps.dashboardDefaults.set(tx, principal.team_id, principal.user_id, String(dashboard.id));
    return { status: 200, document: { data: resource.serialize(dashboard) } };
  },
});
