import type { Knex } from 'knex';
import type { Row } from '@firewatch/resource-kit';
import type { CatalogPropertiesLookup } from '../domain/catalog-properties.lookup.js';

/** The catalog-property reads of other resources' hooks, over the caller's transaction. */
export function createCatalogPropertiesRepository(): CatalogPropertiesLookup {
  return {
    async catalogTypesOf(tx: Knex.Transaction, teamId, ids) {
      if (!ids.length) return new Map();
      // FOR SHARE: a delete of the property, which locks it FOR UPDATE before removing
      // its values, waits for this transaction, and then removes the value written here.
      const rows = (await tx('catalog_properties').where('team_id', teamId).whereIn('id', [...ids]).forShare().select('id', 'catalog_type')) as {
        id: string;
        catalog_type: string;
      }[];
      return new Map(rows.map((r) => [r.id, r.catalog_type]));
    },
    async removeValues(tx: Knex.Transaction, teamId, table, propertyId) {
      const result = await tx.raw(
        `UPDATE ?? SET properties = (SELECT coalesce(jsonb_agg(p), '[]'::jsonb) FROM jsonb_array_elements(properties) p
                                     WHERE p->>'catalog_property_id' <> ?),
                       updated_at = now()
          WHERE team_id = ? AND properties @> jsonb_build_array(jsonb_build_object('catalog_property_id', ?::text))
          RETURNING *`,
        [table, propertyId, teamId, propertyId],
      );
      return result.rows as Row[];
    },
  };
}
