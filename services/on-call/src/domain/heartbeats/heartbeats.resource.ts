import { z } from 'zod';
import { defineResource, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { secretRotation } from '../alert-sources/rotate-secret.action.js';
import {
  generateSourceSecret,
  hashSourceSecret,
  HEARTBEAT_SECRET_PREFIX,
  maskSourceSecret,
  sourceSecretHint,
} from '../alert-sources/source-secret.js';
import { ownerGroupIssues } from '../targets/group-references.js';
import { expiryAfter, type IntervalUnit } from './heartbeat-timing.js';
import { intervalIssues, writable } from './heartbeats.schemas.js';
import { pingHeartbeatAction } from './ping-heartbeat.action.js';

/** Where a cron job pings with the heartbeat's own secret, relative to the public base URL (docs/on-call.md, "Heartbeats"). */
export const heartbeatPingPath = (id: string) => `/ingest/heartbeats/${id}`;

const timestamp = (description: string) => ({ type: 'string', format: 'date-time', nullable: true, description });

/**
 * Heartbeats (issue 23; docs/on-call.md, "Heartbeats"): a cron job pings
 * `POST /v1/heartbeats/{id}/ping` (an API key) or its `ping_url` (its own secret, made
 * and kept as an alert source's) at least every interval; `waiting` until the first
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
    ping_url: (row) => heartbeatPingPath(String(row.id)),
    // Null for a heartbeat made before secrets were (nobody could be shown it): rotate_secret gives one.
    secret: (row) => (row.secret_hint ? maskSourceSecret(String(row.secret_hint), HEARTBEAT_SECRET_PREFIX) : null),
    // Firewatch takes no pings by email.
    email_address: () => '',
  },
  attributeSchemas: {
    status: { type: 'string', enum: ['waiting', 'active', 'expired'], description: 'waiting until the first ping.' },
    ping_url: {
      type: 'string',
      nullable: true,
      description:
        "The ping path for cron jobs, relative to the public base URL: GET or POST, the heartbeat's secret as Authorization: Bearer or appended as a path segment.",
    },
    secret: {
      type: 'string',
      nullable: true,
      description:
        'The ping secret: whole in the create and rotate_secret answers only, else masked (fwhb_****abcd); null until rotate_secret for heartbeats made before secrets.',
    },
    email_address: { type: 'string', description: 'Always empty: Firewatch takes no pings by email.' },
    last_pinged_at: timestamp('When the heartbeat was last pinged.'),
    expires_at: timestamp('When the heartbeat expires without another ping; null while waiting or disabled.'),
  },
  actions: [
    pingHeartbeatAction,
    secretRotation({ type: 'heartbeats', what: "a heartbeat's ping secret", prefix: HEARTBEAT_SECRET_PREFIX }),
  ],
  hooks: {
    defaults: (attributes) => ({
      description: null,
      alert_description: null,
      alert_urgency_id: null,
      owner_group_ids: [],
      enabled: true,
      ...attributes,
      status: 'waiting',
      secret: generateSourceSecret(HEARTBEAT_SECRET_PREFIX),
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
    revealOnCreate: (attributes) => ({ secret: attributes.secret }),
    toColumns(attributes, ctx) {
      const { secret, ...rest }: Row = attributes;
      if (typeof secret === 'string') Object.assign(rest, { secret_hash: hashSourceSecret(secret), secret_hint: sourceSecretHint(secret) });
      const existing = ctx.existing;
      if (!existing) return rest;
      const columns: Row = { ...rest };
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
