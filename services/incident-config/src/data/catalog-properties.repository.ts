import type { Knex } from 'knex';
import type { Row } from '@firewatch/resource-kit';
import type { CatalogPropertiesLookup, ValueCatalog } from '../domain/catalog/catalog-properties.lookup.js';

/** The table of each catalog's records, which hold its property values. */
const VALUE_TABLES: Record<ValueCatalog, string> = {
  environment: 'environments',
  service: 'services',
  functionality: 'functionalities',
  incident_type: 'incident_types',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The catalog-property reads of other resources' hooks, over the caller's transaction. */
export function createCatalogPropertiesRepository(): CatalogPropertiesLookup {
  return {
    async catalogTypesOf(tx: Knex.Transaction, teamId, ids) {
      if (!ids.length) return new Map();
      // FOR SHARE: a delete of the property, which locks it FOR UPDATE before removing
      // its values, waits for this transaction, and then removes the value written here.
      const rows = (await tx('catalog_properties')
        .where('team_id', teamId)
        .whereIn('id', [...ids])
        .forShare()
        .select('id', 'catalog_type')) as {
        id: string;
        catalog_type: string;
      }[];
      return new Map(rows.map((r) => [r.id, r.catalog_type]));
    },
    async idsByKey(tx: Knex.Transaction, teamId, catalogType, keys) {
      if (!keys.length) return new Map();
      const uuids = keys.filter((k) => UUID.test(k)).map((k) => k.toLowerCase());
      const rows = (await tx('catalog_properties')
        .where('team_id', teamId)
        .where((q) => {
          q.where('catalog_type', catalogType).where((byName) => byName.whereIn('external_id', [...keys]).orWhereIn('slug', [...keys]));
          if (uuids.length) q.orWhereIn('id', uuids);
        })
        .select('id', 'external_id', 'slug')) as { id: string; external_id: string | null; slug: string }[];
      const byKey = new Map<string, string>();
      for (const key of keys) {
        const match =
          rows.find((r) => r.id === key.toLowerCase()) ?? rows.find((r) => r.external_id === key) ?? rows.find((r) => r.slug === key);
        if (match) byKey.set(key, match.id);
      }
      return byKey;
    },
    async removeValues(tx: Knex.Transaction, teamId, catalog, propertyId) {
      const result = await tx.raw(
        `UPDATE ?? SET properties = (SELECT coalesce(jsonb_agg(p), '[]'::jsonb) FROM jsonb_array_elements(properties) p
                                     WHERE p->>'catalog_property_id' <> ?),
                       updated_at = now()
          WHERE team_id = ? AND properties @> jsonb_build_array(jsonb_build_object('catalog_property_id', ?::text))
          RETURNING *`,
        [VALUE_TABLES[catalog], propertyId, teamId, propertyId],
      );
      return result.rows as Row[];
    },
  };
}
