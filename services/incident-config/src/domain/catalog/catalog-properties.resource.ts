import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import { CATALOG_TYPES, VALUE_CATALOGS, type CatalogPropertiesDeps, type ValueCatalog } from './catalog-properties.lookup.js';

/** The declaration (its name in the registry) of the records holding each catalog's property values. */
const HOLDERS: Record<ValueCatalog, string> = {
  environment: 'environments',
  service: 'services',
  functionality: 'functionalities',
  incident_type: 'incident_types',
};

const KINDS = [
  'text',
  'reference',
  'boolean',
  'service',
  'functionality',
  'environment',
  'group',
  'cause',
  'incident_type',
  'user',
] as const;
/**
 * The ids of the built-in catalogs, which have no catalog record: fixed, so a client may
 * keep them (docs/decisions.md, Defaults).
 */
export const BUILT_IN_CATALOG_IDS: Partial<Record<string, string>> = {
  environment: 'ae206384-ebad-4160-9281-44419e16c2e5',
  service: '20740af2-9453-4fda-9ea2-86956fe775bd',
  functionality: 'e713b4ba-7c8a-4352-84de-98787c2d0622',
  incident_type: '40488a42-12c7-40ba-a315-b0f631341a2d',
  team: 'c4b0e3a6-5f0b-4d8e-9a51-3f7c2d6e8b14',
};

const MANAGED_BY = ['web', 'admin_web', 'api', 'terraform', 'pulumi', 'backstage', 'catalog_sync'] as const;

const writable = {
  name: z.string().trim().min(1).max(255),
  kind: z.enum(KINDS),
  kind_catalog_id: z.string().max(255).nullable(),
  position: z.number().int().min(0).max(1_000_000).nullable(),
  required: z.boolean(),
  // Accepted as the reference does; the collection path decides the catalog (see below).
  catalog_type: z.enum(CATALOG_TYPES),
  external_id: z.string().min(1).max(255).nullable(),
};

/** The catalogs served here, each at its family's `properties` path. */
const catalogs = [
  { path: '/v1/functionalities/properties', catalog_type: 'functionality', family: 'functionalities' },
  { path: '/v1/services/properties', catalog_type: 'service', family: 'services' },
  { path: '/v1/environments/properties', catalog_type: 'environment', family: 'environments' },
  { path: '/v1/incident_types/properties', catalog_type: 'incident_type', family: 'incident types' },
  // Teams are auth's; their values name these properties as given (docs/decisions.md, Teams' properties).
  { path: '/v1/teams/properties', catalog_type: 'team', family: 'teams' },
] as const;

/**
 * Catalog properties (docs/api-contract.md §1): the custom fields of a catalog, at most
 * 50 per catalog. A property is created under its catalog's path, which fixes
 * `catalog_type` (a different one in the body is ignored, as the reference does), and is
 * read, changed and deleted at `/v1/catalog_properties/{id}`. It cannot move to another
 * catalog: its values live on that catalog's records. Deleting it removes those values in
 * the same transaction, and each record changed is announced (`environment.updated`, ...).
 */
export const catalogProperties = defineResource<CatalogPropertiesDeps>({
  type: 'catalog_properties',
  path: '/v1/catalog_properties',
  collections: catalogs.map(({ path, catalog_type, family }) => ({
    path,
    fixed: { catalog_type },
    summary: `${family} catalog`,
  })),
  table: 'catalog_properties',
  event: 'catalog_property',
  permission: { scope: 'ir.catalogs', side: 'ir' },
  summary: { singular: 'catalog property', plural: 'catalog properties' },
  // The specification's create has no `kind`, which the reference requires: it defaults (see `defaults`).
  create: z
    .strictObject({
      ...writable,
      kind: writable.kind.describe('Default: `reference` when `kind_catalog_id` is set, else `text`.'),
      multiple: z.boolean(),
    })
    .partial()
    .required({ name: true }),
  update: z.strictObject(writable).partial(),
  attributes: [
    'catalog_id',
    'name',
    'slug',
    'kind',
    'kind_catalog_id',
    'multiple',
    'position',
    'required',
    'catalog_type',
    'external_id',
    'managed_by',
  ],
  attributeSchemas: {
    catalog_id: {
      type: 'string',
      description: 'The catalog; the built-in catalogs (environments, services, functionalities) have fixed ids.',
    },
    slug: { type: 'string' },
    managed_by: { type: 'string', enum: [...MANAGED_BY], description: 'Which source manages this property (read-only).' },
  },
  computed: { catalog_id: (row) => row.catalog_id ?? BUILT_IN_CATALOG_IDS[String(row.catalog_type)] ?? null },
  slug: { from: 'name' },
  filters: { slug: 'string', name: 'string', kind: 'string', created_at: 'date' },
  sorts: ['created_at', 'updated_at', 'position'],
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  updateMethods: ['put'],
  limit: { max: 50, per: 'catalog_type', detail: 'exceeds max fields per catalog' },
  unique: {
    catalog_properties_team_id_catalog_type_external_id_unique: {
      pointer: '/data/attributes/external_id',
      detail: 'Another property of this catalog has this external_id.',
    },
  },
  hooks: {
    defaults: (attributes) => ({
      kind: attributes.kind_catalog_id == null ? 'text' : 'reference',
      multiple: false,
      required: false,
      managed_by: 'api',
      ...attributes,
    }),
    validate(attributes, ctx) {
      if (!ctx.existing || attributes.catalog_type === undefined || attributes.catalog_type === ctx.existing.catalog_type) return [];
      return [
        {
          pointer: '/data/attributes/catalog_type',
          code: 'immutable',
          detail: 'A property cannot move to another catalog; create one there instead.',
        },
      ];
    },
    async beforeRemove({ existing, principal, tx, deps, announce }) {
      const catalog = VALUE_CATALOGS.find((c) => c === existing?.catalog_type);
      if (!existing || !catalog) return [];
      // The property row is locked (FOR UPDATE) by now, so no write can add a value meanwhile.
      for (const row of await deps.catalogProperties.removeValues(tx, principal.team_id, catalog, String(existing.id))) {
        await announce(HOLDERS[catalog], 'updated', row);
      }
      return [];
    },
  },
});
