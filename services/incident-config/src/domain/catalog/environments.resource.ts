import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import type { CatalogPropertiesDeps } from './catalog-properties.lookup.js';
import { propertyValueIssues, type PropertyValue } from './catalog-property-values.js';
import { bulkDeleteAction } from './bulk-delete.action.js';
import { bulkUpsertAction } from './bulk-upsert.action.js';

import { catalogEntityFields as shared } from './catalog-entity.fields.js';

// The catalog fields environments share with services and functionalities, one definition of each.
const writable = {
  name: shared.name,
  slug: shared.slug,
  description: shared.description,
  color: shared.color,
  position: shared.position,
  external_id: shared.external_id,
  notify_emails: shared.notify_emails,
  chat_channels: shared.chat_channels,
  chat_aliases: shared.chat_aliases,
  properties: shared.properties,
};

const create = z
  .strictObject({ ...writable, name: writable.name })
  .partial()
  .required({ name: true });

/** A bulk upsert entity's attributes besides external_id, name and fields (the reference's bulk_upsert_environments). */
const bulk = {
  type: 'environments',
  noun: 'environment',
  catalogType: 'environment',
  name: writable.name,
  attributes: z.strictObject(writable).pick({ description: true, color: true, position: true, notify_emails: true }),
};

/**
 * Environments (docs/api-contract.md §1): where an incident happens, e.g. production or staging.
 * `properties` holds values of the environments catalog's properties only.
 */
export const environments = defineResource<CatalogPropertiesDeps>({
  type: 'environments',
  path: '/v1/environments',
  table: 'environments',
  event: 'environment',
  permission: { scope: 'ir.environments', side: 'ir' },
  summary: { singular: 'environment', plural: 'environments' },
  create,
  update: z.strictObject(writable).partial(),
  attributes: [
    'name',
    'slug',
    'managed_by',
    'external_id',
    'description',
    'color',
    'notify_emails',
    'position',
    'chat_channels',
    'chat_aliases',
    'properties',
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
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  unique: {
    environments_team_id_name_unique: { pointer: '/data/attributes/name', detail: 'An environment with this name already exists.' },
    environments_team_id_external_id_unique: {
      pointer: '/data/attributes/external_id',
      detail: 'An environment with this external_id already exists.',
    },
  },
  actions: [bulkUpsertAction(bulk), bulkDeleteAction(bulk)],
  hooks: {
    defaults: (attributes) => ({ properties: [], notify_emails: [], chat_channels: [], chat_aliases: [], ...attributes }),
    async validate(attributes, ctx) {
      if (!Array.isArray(attributes.properties)) return [];
      return propertyValueIssues(
        ctx.deps.catalogProperties,
        ctx.tx,
        ctx.principal.team_id,
        'environment',
        attributes.properties as PropertyValue[],
      );
    },
  },
});
