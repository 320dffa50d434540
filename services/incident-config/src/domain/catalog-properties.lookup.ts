import type { Transaction } from '@firewatch/resource-kit';

/** The catalogs a property may belong to (the reference's `catalog_type`). */
export const CATALOG_TYPES = ['catalog', 'cause', 'environment', 'functionality', 'incident_type', 'service', 'team'] as const;
export type CatalogType = (typeof CATALOG_TYPES)[number];

/**
 * Reads of catalog properties that other resources' hooks need, inside their transaction;
 * the data layer implements it (`src/data/catalog-properties.repository.ts`).
 */
export interface CatalogPropertiesLookup {
  /** The catalog of each of these properties of the team; an id of another team or of none is absent. */
  catalogTypesOf(tx: Transaction, teamId: number, ids: readonly string[]): Promise<Map<string, string>>;
}

/** What incident-config hands its declarations (`createResourceModule(def, { deps })`). */
export interface IncidentConfigResourceDeps {
  catalogProperties: CatalogPropertiesLookup;
}
