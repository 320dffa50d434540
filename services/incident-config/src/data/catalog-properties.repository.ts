import type { Knex } from 'knex';
import type { CatalogPropertiesLookup } from '../domain/catalog-properties.lookup.js';

/** The catalog-property reads of other resources' hooks, over the caller's transaction. */
export function createCatalogPropertiesRepository(): CatalogPropertiesLookup {
  return {
    async catalogTypesOf(tx: Knex.Transaction, teamId, ids) {
      if (!ids.length) return new Map();
      // FOR SHARE: a property deleted meanwhile waits for this transaction, so its
      // delete trigger then removes the value this transaction is writing.
      const rows = (await tx('catalog_properties').where('team_id', teamId).whereIn('id', [...ids]).forShare().select('id', 'catalog_type')) as {
        id: string;
        catalog_type: string;
      }[];
      return new Map(rows.map((r) => [r.id, r.catalog_type]));
    },
  };
}
