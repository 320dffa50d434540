import { defineResource } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { alertEvents } from './alert-events.resource.js';

/**
 * `GET /v1/alert_events` (the reference's listAlertEventsFeed): every alert event of the
 * team's alerts, for polling: newest last by default, `page[after]` with the previous
 * page's cursor to stream forward, the reference's filters (`kind`, `action`, `alert_id`,
 * `created_at`). Read-only; alert events are read, noted and edited through
 * alert-events.resource.ts. Alerts are visible team-wide, so the team scope is theirs.
 */
export const alertEventsFeed = defineResource<OnCallResourceDeps>({
  type: 'alert_events',
  name: 'alert_events_feed',
  path: '/v1/alert_events',
  table: 'alert_events',
  permission: alertEvents.permission,
  summary: { singular: 'alert event', plural: 'alert events (the feed across alerts)' },
  operations: ['list'],
  attributes: alertEvents.attributes,
  attributeSchemas: alertEvents.attributeSchemas,
  filters: { kind: 'string', action: 'string', alert_id: 'uuid', created_at: 'date' },
  sorts: ['created_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
});
