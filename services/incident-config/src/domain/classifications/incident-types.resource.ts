import { z } from 'zod';
import { defineResource, type ResourceDefinition } from '@firewatch/resource-kit';
import { catalogEntityFields } from '../catalog/catalog-entity.fields.js';
import type { CatalogPropertiesDeps } from '../catalog/catalog-properties.lookup.js';
import { propertyValueIssues, type PropertyValue } from '../catalog/catalog-property-values.js';
import type { ClassificationsDeps } from './classification.lookup.js';
import {
  CLASSIFICATION_DEFAULT_SORT,
  CLASSIFICATION_JSON_COLUMNS,
  CLASSIFICATION_SORTS,
  classificationDefaults,
  classificationFields,
  inUseIssues,
} from './classification.fields.js';

type Deps = ClassificationsDeps & CatalogPropertiesDeps;

const writable = { ...classificationFields, properties: catalogEntityFields.properties };

/**
 * Incident types (docs/api-contract.md §1): what kind of incident it is, named by an
 * incident's `incident_type_ids` and by retrospective processes' matching criteria.
 * `properties` holds values of the incident types catalog's properties
 * (`/v1/incident_types/properties`). An incident type in use cannot be deleted (422).
 */
export const incidentTypes: ResourceDefinition<Deps> = defineResource<Deps>({
  type: 'incident_types',
  path: '/v1/incident_types',
  table: 'incident_types',
  event: 'incident_type',
  permission: { scope: 'ir.incident_types', side: 'ir' },
  summary: { singular: 'incident type', plural: 'incident types' },
  create: z.strictObject(writable).partial().required({ name: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['name', 'slug', 'description', 'color', 'position', 'notify_emails', 'chat_channels', 'chat_aliases', 'properties'],
  jsonColumns: [...CLASSIFICATION_JSON_COLUMNS, 'properties'],
  slug: { from: 'name' },
  position: {},
  updateMethods: ['put'],
  filters: {
    slug: 'string',
    name: 'string',
    color: 'string',
    created_at: 'date',
  },
  sorts: CLASSIFICATION_SORTS,
  defaultSort: [...CLASSIFICATION_DEFAULT_SORT],
  unique: {
    incident_types_team_id_name_unique: { pointer: '/data/attributes/name', detail: 'An incident type with this name already exists.' },
  },
  hooks: {
    defaults: (attributes) => ({ ...classificationDefaults, properties: [], ...attributes }),
    validate(attributes, ctx) {
      if (!Array.isArray(attributes.properties)) return [];
      const values = attributes.properties as PropertyValue[];
      return propertyValueIssues(ctx.deps.catalogProperties, ctx.tx, ctx.principal.team_id, 'incident_type', values);
    },
    beforeRemove: (ctx) => inUseIssues('incident_type', ctx),
  },
});
