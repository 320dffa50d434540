import type { Row, Transaction } from '@firewatch/resource-kit';

/** The catalogs a property may belong to (the reference's `catalog_type`). */
export const CATALOG_TYPES = ['catalog', 'cause', 'environment', 'functionality', 'incident_type', 'service', 'team'] as const;
export type CatalogType = (typeof CATALOG_TYPES)[number];
/** The catalogs whose records (environments, services, functionalities, incident types) hold property values served here. */
export const VALUE_CATALOGS = ['environment', 'service', 'functionality', 'incident_type'] as const;
export type ValueCatalog = (typeof VALUE_CATALOGS)[number];

/**
 * Reads of catalog properties that other resources' hooks need, inside their transaction;
 * the data layer implements it (`src/data/catalog-properties.repository.ts`).
 */
export interface CatalogPropertiesLookup {
  /** The catalog of each of these properties of the team; an id of another team or of none is absent. */
  catalogTypesOf(tx: Transaction, teamId: number, ids: readonly string[]): Promise<Map<string, string>>;
  /**
   * The property id each key names: one of the team's properties by id, else one of its
   * `catalogType` properties by external_id, else by slug. A key naming none is absent.
   * An id of another catalog's property is kept, for the write's check to name the catalog.
   */
  idsByKey(tx: Transaction, teamId: number, catalogType: string, keys: readonly string[]): Promise<Map<string, string>>;
  /** Removes the property's values from the team's records of `catalog`; the rows changed. */
  removeValues(tx: Transaction, teamId: number, catalog: ValueCatalog, propertyId: string): Promise<Row[]>;
}

/** What incident-config hands its declarations (`createResourceModule(def, { deps })`). */
export interface CatalogPropertiesDeps {
  catalogProperties: CatalogPropertiesLookup;
}
