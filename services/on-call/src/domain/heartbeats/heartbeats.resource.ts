import { z } from 'zod';
import { defineResource, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { ownerGroupIssues } from '../targets/group-references.js';
import { expiryAfter, type IntervalUnit } from './heartbeat-timing.js';
import { intervalIssues, writable } from './heartbeats.schemas.js';
import { pingHeartbeatAction } from './ping-heartbeat.action.js';

const timestamp = (description: string) => ({ type: 'string', format: 'date-time', nullable: true, description });

/**
 * Heartbeats (issue 23; docs/on-call.md, "Heartbeats"): a cron job pings
 * `POST /v1/heartbeats/{id}/ping` at least every interval; `waiting` until the first
 * ping, then `active` with `expires_at` one interval after the last ping, `expired` when
 * the expiry job (jobs/heartbeat-expiry.job.ts) found no ping in time and raised the alert.
 * A new interval moves a running timer; disabling stops it, and enabling again waits for
 * a new first ping, so a heartbeat switched off during maintenance does not fire at once.
 */
export const heartbeats = defineResource<OnCallResourceDeps>({
  type: 'heartbeats',
  path: '/v1/heartbeats',
  table: 'heartbeats',
  event: 'heartbeat',
  permission: { scope: 'oc.heartbeats', side: 'oc' },
  summary: { singular: 'heartbeat', plural: 'heartbeats' },
  create: z.strictObject(writable).partial().required({
    name: true,
    alert_summary: true,
    interval: true,
    interval_unit: true,
    notification_target_type: true,
    notification_target_id: true,
  }),
  update: z.strictObject(writable).partial(),
  attributes: [
    'name',
    'description',
    'alert_summary',
    'alert_description',
    'alert_urgency_id',
    'interval',
    'interval_unit',
    'notification_target_type',
    'notification_target_id',
    'owner_group_ids',
    'enabled',
    'status',
    'ping_url',
    'secret',
    'email_address',
    'last_pinged_at',
    'expires_at',
  ],
  jsonColumns: ['owner_group_ids'],
  ownerGroups: { column: 'owner_group_ids' },
  filters: {
    search: { kind: 'search', columns: ['name'] },
    name: 'string',
    created_at: 'date',
  },
  sorts: ['name', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  updateMethods: ['put'],
  computed: {
    // Pings come with an API key (the ping action); there is no per-heartbeat secret, ping URL or mailbox yet.
    ping_url: () => null,
    secret: () => null,
    email_address: () => '',
  },
  attributeSchemas: {
    status: { type: 'string', enum: ['waiting', 'active', 'expired'], description: 'waiting until the first ping.' },
    ping_url: { type: 'string', nullable: true, description: 'Always null: ping with an API key (POST /v1/heartbeats/{id}/ping).' },
    secret: { type: 'string', nullable: true, description: 'Always null: there is no per-heartbeat secret.' },
    email_address: { type: 'string', description: 'Always empty: Firewatch takes no pings by email.' },
    last_pinged_at: timestamp('When the heartbeat was last pinged.'),
    expires_at: timestamp('When the heartbeat expires without another ping; null while waiting or disabled.'),
  },
  actions: [pingHeartbeatAction],
  hooks: {
    defaults: (attributes) => ({
      description: null,
      alert_description: null,
      alert_urgency_id: null,
      owner_group_ids: [],
      enabled: true,
      ...attributes,
      status: 'waiting',
    }),
    async validate(attributes, ctx) {
      const issues = [...intervalIssues({ ...ctx.existing, ...attributes }), ...(await ownerGroupIssues(attributes, ctx))];
      const urgency = attributes.alert_urgency_id;
      if (typeof urgency === 'string' && !(await ctx.visibleIds('alert_urgencies', [urgency])).has(urgency))
        issues.push({
          pointer: '/data/attributes/alert_urgency_id',
          code: 'not_found',
          detail: 'alert_urgency_id: the team has no such alert urgency',
        });
      return issues;
    },
    toColumns(attributes, ctx) {
      const existing = ctx.existing;
      if (!existing) return attributes;
      const columns: Row = { ...attributes };
      if (attributes.enabled === false) columns.expires_at = null;
      else if (attributes.enabled === true && existing.enabled === false) Object.assign(columns, { status: 'waiting', expires_at: null });
      else if (existing.status === 'active' && (attributes.interval !== undefined || attributes.interval_unit !== undefined)) {
        const merged = { ...existing, ...attributes };
        columns.expires_at = expiryAfter(
          new Date(String(existing.last_pinged_at)),
          Number(merged.interval),
          merged.interval_unit as IntervalUnit,
        );
      }
      return columns;
    },
  },
});
