import { defineResource } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';

/**
 * An alert's timeline (the reference's alert_events): what happened to it, who did it
 * (`user_id`, null for a monitoring tool or a team-wide key) and why (`details`).
 * Written by the alert writes, read here: `/v1/alerts/{alert_id}/events` and
 * `/v1/alert_events/{id}`, behind the alert's own permission. Notes are not built yet.
 */
export const alertEvents = defineResource<OnCallResourceDeps>({
  type: 'alert_events',
  path: '/v1/alert_events',
  collections: [{ path: '/v1/alerts/{alert_id}/events' }],
  parent: { resource: 'alerts', param: 'alert_id', column: 'alert_id' },
  table: 'alert_events',
  permission: { scope: 'oc.alerts', side: 'oc' },
  summary: { singular: 'alert event', plural: 'alert events' },
  operations: ['list', 'get'],
  attributes: ['alert_id', 'kind', 'action', 'source', 'user_id', 'details'],
  attributeSchemas: {
    alert_id: { type: 'string', format: 'uuid' },
    kind: { type: 'string', enum: ['informational', 'status_update', 'action', 'note'] },
    action: { type: 'string', enum: ['created', 'updated', 'acknowledged', 'resolved', 'triggered', 'retriggered', 'snoozed'] },
    source: { type: 'string', description: 'api, or the type of the alert source the change came from.' },
    user_id: { type: 'integer', nullable: true },
    details: { type: 'string', nullable: true },
  },
  filters: { kind: 'string', action: 'string', created_at: 'date' },
  sorts: ['created_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
});
