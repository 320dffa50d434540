import { defineResource, type HookContext, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { PAGED, type PagedAttributes } from './alerts-in.deps.js';
import { escalateAlertAction } from '../paging/alert-escalate.action.js';
import { snoozeAlertAction } from './alert-snooze.action.js';
import { acknowledgeAlertAction, resolveAlertAction } from './alert-status.actions.js';
import { sourceOf } from '../notifications/alert-link-actions.js';
import { updateAlertSchema } from './alerts.schemas.js';

const ALERT_STATUSES = ['open', 'triggered', 'acknowledged', 'resolved', 'deferred'];
const uuids = { type: 'array', items: { type: 'string', format: 'uuid' } };
const PAGED_USER = {
  type: 'object',
  required: ['id', 'email', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    full_name: { type: 'string' },
    email: { type: 'string' },
    time_zone: { type: 'string', nullable: true },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
};

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
    'notified_users',
    'responders',
    'alerting_targets',
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
    notified_users: {
      type: 'array',
      nullable: true,
      description:
        'The users its paging reached out to (a notification made, whatever its outcome), first paged first. On lists, null unless `include=notified_users`.',
      items: PAGED_USER,
    },
    responders: {
      type: 'array',
      nullable: true,
      description: 'The users who acknowledged or resolved it. On lists, null unless `include=responders`.',
      items: PAGED_USER,
    },
    alerting_targets: {
      type: 'array',
      description: 'What its latest paging pages: escalation policies, or users paged directly.',
      items: { type: 'object', required: ['id', 'type'], properties: { id: { type: 'string' }, type: { type: 'string' } } },
    },
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
  actions: [acknowledgeAlertAction, resolveAlertAction, snoozeAlertAction, escalateAlertAction],
  unique: {
    alerts_open_deduplication_key_unique: {
      pointer: '/data/attributes/deduplication_key',
      detail: 'An unresolved alert of the same source already has this deduplication key.',
    },
  },
  // The reference's include names that fill an attribute on lists (see expand) and add nothing to `included`.
  includes: { notified_users: async () => [], responders: async () => [] },
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
      if (ctx.existing && typeof attributes.status === 'string' && attributes.status !== ctx.existing.status)
        await pageOnStatus(ctx.existing, attributes, ctx);
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
    // A list loads the user lists only when its include names them, as the reference shows them.
    expand: (rows, ctx) =>
      ctx.deps.paging.expand(
        ctx.tx,
        rows,
        ctx.list && { notified_users: ctx.list.include.includes('notified_users'), responders: ctx.list.include.includes('responders') },
      ),
  },
  computed: {
    // Null where a list did not include it; [] on a row never expanded (an event of a new alert).
    notified_users: (row) => pagedUsers(row, 'notified_users'),
    responders: (row) => pagedUsers(row, 'responders'),
    alerting_targets: (row) => (row[PAGED] as PagedAttributes | undefined)?.alerting_targets ?? [],
  },
});

function pagedUsers(row: Row, name: 'notified_users' | 'responders') {
  const paged = row[PAGED] as PagedAttributes | undefined;
  return paged ? (paged[name] ?? null) : [];
}

/**
 * Paging follows the status however it changes (PATCH, acknowledge, resolve, snooze, a
 * signed link), in the write's transaction: acknowledged, resolved or deferred stops it and
 * cancels due notifications; triggered again starts it from level 1 (docs/paging.md).
 */
async function pageOnStatus(existing: Row, attributes: Row, ctx: HookContext<OnCallResourceDeps>) {
  // A signed link's acknowledge or resolve stops paging from the link, as its own event says.
  const actor = { source: sourceOf(ctx.principal), user_id: ctx.principal.user_id };
  const now = new Date();
  if (attributes.status === 'triggered') await ctx.deps.paging.start(ctx.tx, { ...existing, ...attributes }, now);
  else await ctx.deps.paging.stop(ctx.tx, existing, String(attributes.status), now, actor);
}
