import { defineResource } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { snoozeAlertAction } from './alert-snooze.action.js';
import { acknowledgeAlertAction, resolveAlertAction } from './alert-status.actions.js';
import { updateAlertSchema } from './alerts.schemas.js';

const ALERT_STATUSES = ['open', 'triggered', 'acknowledged', 'resolved', 'deferred'];
const uuids = { type: 'array', items: { type: 'string', format: 'uuid' } };

/**
 * Alerts (issue 23, the reference's alerts): what monitoring tools and the API raise.
 * Created by `POST /v1/alerts` (alerts.routes.ts: deduplication may answer an existing
 * alert) and by ingestion; listed, read and changed (`PATCH`) here, and moved by the
 * `acknowledge` and `resolve` actions. Every change adds an alert event (the timeline,
 * `/v1/alerts/{id}/events`) naming who and why. Grouping (alert-grouping.ts) sets
 * `group_leader_alert_id` and `is_group_leader_alert` when the alert enters.
 */
export const alerts = defineResource<OnCallResourceDeps>({
  type: 'alerts',
  path: '/v1/alerts',
  table: 'alerts',
  event: 'alert',
  permission: { scope: 'oc.alerts', side: 'oc' },
  summary: { singular: 'alert', plural: 'alerts' },
  operations: ['list', 'get', 'update'],
  update: updateAlertSchema,
  updateMethods: ['patch'],
  attributes: [
    'short_id',
    'noise',
    'source',
    'status',
    'summary',
    'description',
    'alert_source_id',
    'service_ids',
    'group_ids',
    'functionality_ids',
    'environment_ids',
    'external_id',
    'external_url',
    'alert_urgency_id',
    'group_leader_alert_id',
    'is_group_leader_alert',
    'labels',
    'data',
    'notification_target_type',
    'notification_target_id',
    'deduplication_key',
    'received_count',
    'started_at',
    'ended_at',
  ],
  jsonColumns: ['service_ids', 'group_ids', 'functionality_ids', 'environment_ids', 'labels', 'data'],
  attributeSchemas: {
    short_id: { type: 'string', description: 'Human-readable short identifier (ALR-<n>).' },
    status: { type: 'string', enum: ALERT_STATUSES },
    alert_source_id: { type: 'string', format: 'uuid', nullable: true, description: 'The alert source it came from; null for the API.' },
    service_ids: uuids,
    group_ids: uuids,
    functionality_ids: uuids,
    environment_ids: uuids,
    group_leader_alert_id: {
      type: 'string',
      format: 'uuid',
      nullable: true,
      description: 'The leader of the alert group it joined; null for a leader or an alert in no group.',
    },
    is_group_leader_alert: {
      type: 'boolean',
      nullable: true,
      description: 'Whether it leads an alert group (the alert paging will page).',
    },
    notification_target_type: { type: 'string', nullable: true, enum: ['User', 'Group', 'EscalationPolicy', 'Service', 'Functionality'] },
    notification_target_id: { type: 'string', nullable: true },
    received_count: { type: 'integer', description: 'How many times it was received: 1, plus one per deduplicated arrival.' },
  },
  filters: {
    status: 'string',
    source: 'string',
    alert_source_id: 'uuid',
    alert_urgency_id: 'uuid',
    deduplication_key: { kind: 'string', column: 'deduplication_key' },
    services: { kind: 'uuid_list', column: 'service_ids' },
    groups: { kind: 'uuid_list', column: 'group_ids' },
    environments: { kind: 'uuid_list', column: 'environment_ids' },
    started_at: 'date',
    ended_at: 'date',
    created_at: 'date',
    updated_at: 'date',
  },
  sorts: ['created_at', 'updated_at', 'started_at'],
  defaultSort: [{ field: 'created_at', direction: 'desc' }],
  actions: [acknowledgeAlertAction, resolveAlertAction, snoozeAlertAction],
  unique: {
    alerts_open_deduplication_key_unique: {
      pointer: '/data/attributes/deduplication_key',
      detail: 'An unresolved alert of the same source already has this deduplication key.',
    },
  },
  hooks: {
    async validate(attributes, ctx) {
      const urgency = attributes.alert_urgency_id;
      if (typeof urgency === 'string' && !(await ctx.visibleIds('alert_urgencies', [urgency])).has(urgency))
        return [
          {
            pointer: '/data/attributes/alert_urgency_id',
            code: 'not_found',
            detail: 'alert_urgency_id: the team has no such alert urgency',
          },
        ];
      return [];
    },
    // A PATCH is a change of the timeline too (actions, which write `status`, record their own event).
    async toColumns(attributes, ctx) {
      const key = attributes.deduplication_key;
      // Under the key's lock, as the intake takes it: an intake that found no alert of this
      // key would otherwise insert one after this commit and fail on the unique index.
      if (ctx.existing && typeof key === 'string' && key !== ctx.existing.deduplication_key)
        await ctx.deps.alertsIn.lockKey(ctx.tx, Number(ctx.existing.team_id), (ctx.existing.alert_source_id as string | null) ?? null, key);
      if (ctx.existing && !('status' in attributes))
        await ctx.deps.alertsIn.recordEvent(ctx.tx, {
          team_id: ctx.principal.team_id,
          alert_id: String(ctx.existing.id),
          kind: 'informational',
          action: 'updated',
          source: 'api',
          user_id: ctx.principal.user_id,
          details: `Changed: ${Object.keys(attributes).sort().join(', ')}.`,
        });
      return attributes;
    },
  },
});
