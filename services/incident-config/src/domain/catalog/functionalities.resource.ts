import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import { bulkDeleteAction } from './bulk-delete.action.js';
import { bulkUpsertAction } from './bulk-upsert.action.js';
import { catalogEntityIssues, type CatalogEntityDeps } from './catalog-entity.rules.js';
import {
  CATALOG_ENTITY_ATTRIBUTES,
  CATALOG_ENTITY_JSON_COLUMNS,
  CATALOG_ENTITY_SORTS,
  catalogEntityDefaults,
  catalogEntityFields,
  catalogEntityFilters,
  OWNER_GROUPS,
} from './catalog-entity.fields.js';

const writable = catalogEntityFields;

/** What a bulk upsert entity may carry besides external_id, name and fields (docs/decisions.md, Resources). */
const bulkAttributes = z.strictObject(writable).pick({
  description: true,
  public_description: true,
  color: true,
  position: true,
  show_uptime: true,
  show_uptime_last_days: true,
  notify_emails: true,
  pagerduty_id: true,
  opsgenie_id: true,
  opsgenie_team_id: true,
  backstage_id: true,
  cortex_id: true,
  opslevel_id: true,
  service_now_ci_sys_id: true,
});

const family = {
  type: 'functionalities',
  noun: 'functionality',
  catalogType: 'functionality',
  name: writable.name,
  attributes: bulkAttributes,
  ownerGroups: OWNER_GROUPS,
};

/** Functionalities (docs/api-contract.md §1): what users do with the product, e.g. checkout; keyed by external_id for catalog sync. */
export const functionalities = defineResource<CatalogEntityDeps>({
  type: 'functionalities',
  path: '/v1/functionalities',
  table: 'functionalities',
  event: 'functionality',
  permission: { scope: 'ir.functionalities', side: 'ir' },
  summary: { singular: 'functionality', plural: 'functionalities' },
  create: z.strictObject(writable).partial().required({ name: true }),
  update: z.strictObject(writable).partial(),
  attributes: CATALOG_ENTITY_ATTRIBUTES,
  jsonColumns: CATALOG_ENTITY_JSON_COLUMNS,
  slug: { from: 'name' },
  ownerGroups: OWNER_GROUPS,
  filters: catalogEntityFilters,
  sorts: CATALOG_ENTITY_SORTS,
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  updateMethods: ['put'],
  unique: {
    // Per owner set (migration 0072): a conflict is with a record the writer sees.
    functionalities_team_id_name_owner_set_unique: {
      pointer: '/data/attributes/name',
      detail: 'A functionality with this name and these owner groups already exists.',
    },
    functionalities_team_id_external_id_owner_set_unique: {
      pointer: '/data/attributes/external_id',
      detail: 'A functionality with this external_id and these owner groups already exists.',
    },
  },
  actions: [bulkUpsertAction(family), bulkDeleteAction(family)],
  hooks: {
    defaults: catalogEntityDefaults,
    validate: catalogEntityIssues('functionality'),
  },
});
