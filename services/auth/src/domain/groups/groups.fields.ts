import { z } from 'zod';
import type { FilterSpec } from '@firewatch/resource-kit';

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** Lists may be sent as null to clear them; they are stored and returned as []. */
const list = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item)
    .max(max)
    .nullable()
    .transform((v) => v ?? []);

const text = (max = 255) => z.string().max(max).nullable();
const chatRef = z.strictObject({ id: z.string().min(1).max(255), name: z.string().min(1).max(255) });
/** The reference requires only the channel id of a broadcast channel. */
const broadcastChannel = z.strictObject({ id: z.string().min(1).max(255), name: z.string().min(1).max(255).optional() }).nullable();
/**
 * Values of the teams catalog's properties. The properties are incident-config's, so only
 * the shape is judged here and the ids are kept as given (docs/decisions.md, Teams' properties).
 */
const propertyValues = list(
  z.strictObject({
    catalog_property_id: z.uuid().transform((id) => id.toLowerCase()),
    value: z.string().max(10_000),
  }),
  50,
).refine((ps) => new Set(ps.map((p) => p.catalog_property_id)).size === ps.length, 'lists a catalog property more than once');
/** Users of the tenant by their integer ids; a list names each once. */
const userIds = list(z.number().int().positive().max(2_147_483_647), 1000).transform((ids) => [...new Set(ids)]);

/**
 * A group's writable attributes: the reference's new_team, with the specification's
 * `chat_*` names for its `slack_*` lists (docs/api-contract.md §2). `slug` and
 * `managed_by` are read-only.
 */
export const groupFields = {
  name: z.string().trim().min(1).max(255),
  description: text(10_000),
  notify_emails: list(z.email(), 100),
  color: z.string().regex(HEX_COLOR, 'must be a hex colour such as #FF0000').nullable(),
  position: z.number().int().min(0).max(1_000_000).nullable(),
  // The bulk upsert key: an empty one could never be named again.
  external_id: z.string().min(1).max(255).nullable(),
  backstage_id: text(),
  pagerduty_id: text(),
  pagerduty_service_id: text(),
  opsgenie_id: text(),
  opsgenie_team_id: text(),
  victor_ops_id: text(),
  pagertree_id: text(),
  cortex_id: text(),
  opslevel_id: text(),
  service_now_ci_sys_id: text(),
  // Changed only by the tenant's admins and the group's own admins (group-members.rules.ts).
  user_ids: userIds,
  admin_ids: userIds,
  alerts_email_enabled: z.boolean().nullable(),
  // On-call's alert urgencies have UUIDs; stored as PostgreSQL writes them.
  alert_urgency_id: z
    .uuid()
    .transform((id) => id.toLowerCase())
    .nullable(),
  chat_channels: list(chatRef, 100),
  chat_aliases: list(chatRef, 100),
  alert_broadcast_enabled: z.boolean().nullable(),
  alert_broadcast_channel: broadcastChannel,
  incident_broadcast_enabled: z.boolean().nullable(),
  incident_broadcast_channel: broadcastChannel,
  auto_add_members_when_attached: z.boolean().nullable(),
  auto_add_members_scope: z.enum(['off', 'public_only', 'public_and_test', 'all']).nullable(),
  properties: propertyValues,
};

/** Response attributes in the reference's order. */
export const GROUP_ATTRIBUTES = [
  'name',
  'slug',
  'managed_by',
  'description',
  'notify_emails',
  'color',
  'position',
  'backstage_id',
  'external_id',
  'pagerduty_id',
  'pagerduty_service_id',
  'opsgenie_id',
  'opsgenie_team_id',
  'victor_ops_id',
  'pagertree_id',
  'cortex_id',
  'opslevel_id',
  'service_now_ci_sys_id',
  'user_ids',
  'admin_ids',
  'alerts_email_enabled',
  'alert_urgency_id',
  'chat_channels',
  'chat_aliases',
  'alert_broadcast_enabled',
  'alert_broadcast_channel',
  'incident_broadcast_enabled',
  'incident_broadcast_channel',
  'auto_add_members_when_attached',
  'auto_add_members_scope',
  'properties',
] as const;

export const GROUP_JSON_COLUMNS = [
  'notify_emails',
  'user_ids',
  'admin_ids',
  'chat_channels',
  'chat_aliases',
  'alert_broadcast_channel',
  'incident_broadcast_channel',
  'properties',
] as const;

/** Read-only attributes, which no write schema describes. */
export const GROUP_ATTRIBUTE_SCHEMAS = {
  slug: { type: 'string', pattern: '^[a-z0-9_-]+$' },
  managed_by: { type: 'string', enum: ['web', 'admin_web', 'api', 'terraform', 'pulumi', 'backstage', 'catalog_sync'] },
};

/** The reference's list filters (listTeams). */
export const GROUP_FILTERS: Record<string, FilterSpec> = {
  search: { kind: 'search', columns: ['name', 'description'] },
  slug: 'string',
  name: 'string',
  backstage_id: 'string',
  cortex_id: 'string',
  opslevel_id: 'string',
  external_id: 'string',
  color: 'string',
  alert_broadcast_enabled: 'boolean',
  incident_broadcast_enabled: 'boolean',
  created_at: 'date',
};

export const GROUP_SORTS = ['name', 'slug', 'position', 'created_at', 'updated_at'] as const;

/** Empty lists rather than nulls on create, as the reference returns them. */
export const groupDefaults = (attributes: Record<string, unknown>) => ({
  notify_emails: [],
  user_ids: [],
  admin_ids: [],
  chat_channels: [],
  chat_aliases: [],
  properties: [],
  ...attributes,
});
