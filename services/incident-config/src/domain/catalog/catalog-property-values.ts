import type { ValidationIssue } from '@firewatch/errors';
import type { Transaction } from '@firewatch/resource-kit';
import type { CatalogPropertiesLookup } from './catalog-properties.lookup.js';

/** One value of a catalog property on a record of that catalog. */
export interface PropertyValue {
  catalog_property_id: string;
  value: string;
}

/**
 * A 422 issue for each value whose property is not one of this team's properties of
 * `catalogType`. Another team's property reads as unknown, so its existence does not leak.
 */
export async function propertyValueIssues(
  lookup: CatalogPropertiesLookup,
  tx: Transaction,
  teamId: number,
  catalogType: string,
  values: readonly PropertyValue[],
): Promise<ValidationIssue[]> {
  const catalogs = await lookup.catalogTypesOf(
    tx,
    teamId,
    values.map((v) => v.catalog_property_id),
  );
  return values.flatMap((v, i) => {
    const found = catalogs.get(v.catalog_property_id);
    if (found === catalogType) return [];
    const detail =
      found === undefined
        ? `No catalog property "${v.catalog_property_id}".`
        : `Catalog property "${v.catalog_property_id}" belongs to the ${found} catalog, not the ${catalogType} catalog.`;
    return [{ pointer: `/data/attributes/properties/${i}/catalog_property_id`, code: 'invalid_reference', detail }];
  });
}
