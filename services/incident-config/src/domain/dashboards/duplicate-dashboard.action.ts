import { ValidationError } from '@firewatch/errors';
import { defineAction, type Row } from '@firewatch/resource-kit';
import type { DashboardsDeps } from './dashboard-stores.js';

const COPIED = ['description', 'public', 'range', 'period', 'auto_refresh', 'color', 'icon'] as const;

/**
 * `POST /v1/dashboards/{id}/duplicate`: a copy of a dashboard the caller can see, with
 * its panels, owned by the caller's user. A credential acting for no user may copy a
 * team dashboard into another team dashboard, not a user's into one the team would see.
 */
export const duplicateDashboardAction = defineAction<DashboardsDeps>({
  name: 'duplicate',
  on: 'item',
  capabilities: ['read', 'create'],
  response: { status: 201, description: 'The copy' },
  summary: 'Duplicate a dashboard with its panels',
  async run({ principal, tx, deps, record, resource }) {
    const source = record as Row;
    if (principal.user_id === null && source.owner !== 'team') {
      throw new ValidationError([
        { pointer: '/data', code: 'no_user', detail: 'This credential acts for no user, so it can copy only team dashboards.' },
      ]);
    }
    const attributes: Row = { name: `${String(source.name)} (copy)`, owner: principal.user_id === null ? 'team' : 'user' };
    for (const a of COPIED) attributes[a] = source[a];
    const copy = await resource.create(attributes);
    await deps.dashboardPanels.copy(tx, principal.team_id, String(source.id), copy.id);
    return { status: 201, document: { data: copy } };
  },
});
