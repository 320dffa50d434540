import { z } from 'zod';
import { defineResource, SLUG_PATTERN } from '@firewatch/resource-kit';
import type { IncidentConfigResourceDeps } from '../catalog-properties.lookup.js';
import { propertyValueIssues, type PropertyValue } from '../catalog-property-values.js';
import { bulkDeleteAction } from '../bulk/bulk-delete.action.js';
import { bulkUpsertAction } from '../bulk/bulk-upsert.action.js';

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;
const chatRef = z.strictObject({ id: z.string().min(1).max(255), name: z.string().min(1).max(255) });

/** Lists may be sent as null to clear them; they are stored and returned as []. */
const list = <T extends z.ZodType>(item: T, max: number) =>
  z.array(item).max(max).nullable().transform((v) => v ?? []);

const writable = {
  name: z.string().trim().min(1).max(255),
  slug: z.string().min(1).max(255).regex(SLUG_PATTERN, 'must contain only a-z, 0-9, - and _'),
  description: z.string().max(10_000).nullable(),
  color: z.string().regex(HEX_COLOR, 'must be a hex colour such as #FF0000').nullable(),
  position: z.number().int().min(0).max(1_000_000).nullable(),
  external_id: z.string().max(255).nullable(),
  notify_emails: list(z.email(), 100),
  chat_channels: list(chatRef, 100),
  chat_aliases: list(chatRef, 100),
  properties: list(z.strictObject({ catalog_property_id: z.uuid(), value: z.string().max(10_000) }), 50).refine(
    (ps) => new Set(ps.map((p) => p.catalog_property_id)).size === ps.length,
    'lists a catalog property more than once',
  ),
};

const create = z.strictObject({ ...writable, name: writable.name }).partial().required({ name: true });

/** A bulk upsert entity's attributes besides external_id, name and fields (the reference's bulk_upsert_environments). */
const bulk = {
  type: 'environments', noun: 'environment', name: writable.name,
  attributes: z.strictObject(writable).pick({ description: true, color: true, position: true, notify_emails: true }),
};

/**
 * Environments (spec 2.11): where an incident happens, e.g. production or staging.
 * `properties` holds values of the environments catalog's properties only.
 */
export const environments = defineResource<IncidentConfigResourceDeps>({
  type: 'environments',
  path: '/v1/environments',
  table: 'environments',
  event: 'environment',
  permission: { scope: 'ir.environments', side: 'ir' },
  summary: { singular: 'environment', plural: 'environments' },
  create,
  update: z.strictObject(writable).partial(),
  attributes: [
    'name', 'slug', 'managed_by', 'external_id', 'description', 'color', 'notify_emails', 'position',
    'chat_channels', 'chat_aliases', 'properties',
  ],
  jsonColumns: ['notify_emails', 'chat_channels', 'chat_aliases', 'properties'],
  slug: { from: 'name' },
  filters: {
    search: { kind: 'search', columns: ['name', 'description'] },
    slug: 'string',
    name: 'string',
    color: 'string',
    external_id: 'string',
    created_at: 'date',
    updated_at: 'date',
  },
  sorts: ['name', 'slug', 'position', 'color', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'position', direction: 'asc' }, { field: 'created_at', direction: 'asc' }],
  unique: {
    environments_team_id_name_unique: { pointer: '/data/attributes/name', detail: 'An environment with this name already exists.' },
    environments_team_id_external_id_unique: { pointer: '/data/attributes/external_id', detail: 'An environment with this external_id already exists.' },
  },
  async validate(attributes, ctx) {
    if (!Array.isArray(attributes.properties)) return [];
    return propertyValueIssues(ctx.deps.catalogProperties, ctx.tx, ctx.principal.team_id, 'environment', attributes.properties as PropertyValue[]);
  },
  defaults: (attributes) => ({ properties: [], notify_emails: [], chat_channels: [], chat_aliases: [], ...attributes }),
  actions: [bulkUpsertAction(bulk), bulkDeleteAction(bulk)],
});
