import { defineResource } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { alertNoteHooks, newNoteSchema, updateNoteSchema } from './alert-notes.js';
import { ALERT_EVENT_ACTIONS, ALERT_EVENT_KINDS } from './alerts-in.deps.js';

/**
 * An alert's timeline (the reference's alert_events): what happened to it, who did it
 * (`user_id`, null for a monitoring tool or a team-wide key) and why (`details`).
 * Written by the alert writes, read here: `/v1/alerts/{alert_id}/events` and
 * `/v1/alert_events/{id}`, behind the alert's own permission. People add notes
 * (`POST /v1/alerts/{alert_id}/events`, kind `note`), and only notes may be edited or
 * deleted (alert-notes.ts); the feed across alerts is alert-events-feed.resource.ts.
 */
export const alertEvents = defineResource<OnCallResourceDeps>({
  type: 'alert_events',
  path: '/v1/alert_events',
  collections: [{ path: '/v1/alerts/{alert_id}/events' }],
  parent: { resource: 'alerts', param: 'alert_id', column: 'alert_id' },
  table: 'alert_events',
  event: 'alert_event',
  permission: { scope: 'oc.alerts', side: 'oc' },
  summary: { singular: 'alert event', plural: 'alert events' },
  create: newNoteSchema,
  update: updateNoteSchema,
  updateMethods: ['patch'],
  // The reference's deleteAlertEvent answers 200 with no body.
  deleteAnswer: 'empty',
  attributes: ['alert_id', 'kind', 'action', 'source', 'user_id', 'details'],
  attributeSchemas: {
    alert_id: { type: 'string', format: 'uuid' },
    kind: { type: 'string', enum: [...ALERT_EVENT_KINDS] },
    action: { type: 'string', enum: [...ALERT_EVENT_ACTIONS] },
    source: { type: 'string', description: 'api, paging (the paging engine), or the type of the alert source the change came from.' },
    user_id: { type: 'integer', nullable: true },
    details: { type: 'string', nullable: true },
  },
  filters: { kind: 'string', action: 'string', created_at: 'date' },
  sorts: ['created_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  hooks: alertNoteHooks,
});
