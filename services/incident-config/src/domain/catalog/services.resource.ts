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

const text = z.string().max(255).nullable();
/** The reference requires only the channel id of a broadcast channel. */
const broadcastChannel = z.strictObject({ id: z.string().min(1).max(255), name: z.string().min(1).max(255).optional() }).nullable();

const writable = {
  ...catalogEntityFields,
  github_repository_name: text,
  github_repository_branch: text,
  gitlab_repository_name: text,
  gitlab_repository_branch: text,
  kubernetes_deployment_name: text,
  alert_urgency_id: text,
  alerts_email_enabled: z.boolean().nullable(),
  alert_broadcast_enabled: z.boolean().nullable(),
  alert_broadcast_channel: broadcastChannel,
  incident_broadcast_enabled: z.boolean().nullable(),
  incident_broadcast_channel: broadcastChannel,
};

/** What a bulk upsert entity may carry besides external_id, name and fields (the reference's bulk_upsert_services). */
const bulkAttributes = z.strictObject(writable).pick({
  description: true,
  public_description: true,
  color: true,
  position: true,
  show_uptime: true,
  show_uptime_last_days: true,
  github_repository_name: true,
  github_repository_branch: true,
  gitlab_repository_name: true,
  gitlab_repository_branch: true,
  kubernetes_deployment_name: true,
  pagerduty_id: true,
  opsgenie_id: true,
  opsgenie_team_id: true,
  cortex_id: true,
  opslevel_id: true,
  backstage_id: true,
  service_now_ci_sys_id: true,
  notify_emails: true,
  alerts_email_enabled: true,
});

const family = {
  type: 'services',
  noun: 'service',
  catalogType: 'service',
  name: writable.name,
  attributes: bulkAttributes,
  ownerGroups: OWNER_GROUPS,
};

/** Services (docs/api-contract.md §1): the systems incidents affect; keyed by external_id for catalog sync. */
export const services = defineResource<CatalogEntityDeps>({
  type: 'services',
  path: '/v1/services',
  table: 'services',
  event: 'service',
  permission: { scope: 'ir.services', side: 'ir' },
  // Its ratings on incident events go with it (ON DELETE CASCADE), each announced.
  cascades: [{ resource: 'incident_event_services', column: 'service_id' }],
  summary: { singular: 'service', plural: 'services' },
  create: z.strictObject(writable).partial().required({ name: true }),
  update: z.strictObject(writable).partial(),
  attributes: [
    ...CATALOG_ENTITY_ATTRIBUTES,
    'github_repository_name',
    'github_repository_branch',
    'gitlab_repository_name',
    'gitlab_repository_branch',
    'kubernetes_deployment_name',
    'alert_urgency_id',
    'alerts_email_enabled',
    'alert_broadcast_enabled',
    'alert_broadcast_channel',
    'incident_broadcast_enabled',
    'incident_broadcast_channel',
  ],
  jsonColumns: [...CATALOG_ENTITY_JSON_COLUMNS, 'alert_broadcast_channel', 'incident_broadcast_channel'],
  slug: { from: 'name' },
  ownerGroups: OWNER_GROUPS,
  filters: { ...catalogEntityFilters, alert_broadcast_enabled: 'boolean', incident_broadcast_enabled: 'boolean' },
  sorts: CATALOG_ENTITY_SORTS,
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  updateMethods: ['put'],
  unique: {
    // Per owner set (migration 0072): a conflict is with a record the writer sees.
    services_team_id_name_owner_set_unique: {
      pointer: '/data/attributes/name',
      detail: 'A service with this name and these owner groups already exists.',
    },
    services_team_id_external_id_owner_set_unique: {
      pointer: '/data/attributes/external_id',
      detail: 'A service with this external_id and these owner groups already exists.',
    },
  },
  actions: [bulkUpsertAction(family), bulkDeleteAction(family)],
  hooks: {
    defaults: catalogEntityDefaults,
    validate: catalogEntityIssues('service'),
  },
});
