import { z } from 'zod';
import type { FilterSpec } from '@firewatch/resource-kit';
import { SLUG_PATTERN } from '@firewatch/resource-kit';
import { normalGroupId, OWNER_GROUPS_DESCRIPTION } from '../groups/group-references.js';
import type { ReferencedResource } from './record-references.js';

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** Lists may be sent as null to clear them; they are stored and returned as []. */
export const list = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item)
    .max(max)
    .nullable()
    .transform((v) => v ?? []);

const text = (max = 255) => z.string().max(max).nullable();
/** Stored as PostgreSQL writes uuids, so a listed id compares equal to the record's. */
const recordId = z.uuid().transform((id) => id.toLowerCase());
const chatRef = z.strictObject({ id: z.string().min(1).max(255), name: z.string().min(1).max(255) });

/** Catalog property values. Whether each property exists in the catalog is the catalog's check, not this schema's. */
export const propertyValues = list(z.strictObject({ catalog_property_id: z.uuid(), value: z.string().max(10_000) }), 50).refine(
  (ps) => new Set(ps.map((p) => p.catalog_property_id)).size === ps.length,
  'lists a catalog property more than once',
);

/**
 * Writable attributes services and functionalities share: the reference's schemas, with
 * the specification's `chat_*` names for the reference's `slack_*`.
 */
export const catalogEntityFields = {
  name: z.string().trim().min(1).max(255),
  slug: z.string().min(1).max(255).regex(SLUG_PATTERN, 'must contain only a-z, 0-9, - and _'),
  description: text(10_000),
  public_description: text(10_000),
  notify_emails: list(z.email(), 100),
  color: z.string().regex(HEX_COLOR, 'must be a hex colour such as #FF0000').nullable(),
  position: z.number().int().min(0).max(1_000_000).nullable(),
  show_uptime: z.boolean().nullable(),
  show_uptime_last_days: z.union([z.literal(30), z.literal(60), z.literal(90)]).nullable(),
  // The bulk upsert key: an empty one could never be named again.
  external_id: z.string().min(1).max(255).nullable(),
  backstage_id: text(),
  pagerduty_id: text(),
  opsgenie_id: text(),
  opsgenie_team_id: text(),
  cortex_id: text(),
  opslevel_id: text(),
  service_now_ci_sys_id: text(),
  environment_ids: list(recordId, 100),
  service_ids: list(recordId, 100),
  // Teams' ids (GET /v1/teams), each a team of the tenant (catalog-entity.rules.ts).
  owner_group_ids: list(z.string().min(1).max(255).transform(normalGroupId), 100).describe(OWNER_GROUPS_DESCRIPTION),
  owner_user_ids: list(z.number().int().positive(), 100),
  escalation_policy_id: text(),
  chat_channels: list(chatRef, 100),
  chat_aliases: list(chatRef, 100),
  properties: propertyValues,
};

/** Response attributes both families return, in the reference's order (`managed_by` is read-only). */
export const CATALOG_ENTITY_ATTRIBUTES = [
  'name',
  'slug',
  'managed_by',
  'description',
  'public_description',
  'notify_emails',
  'color',
  'position',
  'show_uptime',
  'show_uptime_last_days',
  'backstage_id',
  'external_id',
  'pagerduty_id',
  'opsgenie_id',
  'opsgenie_team_id',
  'cortex_id',
  'opslevel_id',
  'service_now_ci_sys_id',
  'environment_ids',
  'service_ids',
  'owner_group_ids',
  'owner_user_ids',
  'escalation_policy_id',
  'chat_channels',
  'chat_aliases',
  'properties',
] as const;

export const CATALOG_ENTITY_JSON_COLUMNS = [
  'notify_emails',
  'environment_ids',
  'service_ids',
  'owner_group_ids',
  'owner_user_ids',
  'chat_channels',
  'chat_aliases',
  'properties',
] as const;

/**
 * Services and functionalities name their owner groups: a group-scoped key sees and
 * changes only its groups' records, bulk operations included (docs/security.md).
 */
export const OWNER_GROUPS = { column: 'owner_group_ids' } as const;

/** Id lists naming records of this service: each id newly listed must be one the caller sees (a 422 otherwise). */
export const CATALOG_ENTITY_REFERENCES: Readonly<Record<string, ReferencedResource>> = {
  environment_ids: 'environments',
  service_ids: 'services',
};

/** The reference's list filters of both families; `name` and `slug` also take eq/not_eq/in/not_in. */
export const catalogEntityFilters: Record<string, FilterSpec> = {
  search: { kind: 'search', columns: ['name', 'description'] },
  name: 'string',
  slug: 'string',
  external_id: 'string',
  backstage_id: 'string',
  cortex_id: 'string',
  opslevel_id: 'string',
  created_at: 'date',
};

export const CATALOG_ENTITY_SORTS = ['name', 'slug', 'position', 'created_at', 'updated_at'] as const;

/** Empty lists rather than nulls on create, as the reference returns them. */
export const catalogEntityDefaults = (attributes: Record<string, unknown>) => ({
  notify_emails: [],
  environment_ids: [],
  service_ids: [],
  owner_group_ids: [],
  owner_user_ids: [],
  chat_channels: [],
  chat_aliases: [],
  properties: [],
  ...attributes,
});
