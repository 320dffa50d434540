import type { PropertyValue } from './catalog-property-values.js';

/** A bulk entity's catalog value; `catalog_field_id` is the reference's alias of `catalog_property_id`. */
export interface FieldValue {
  catalog_field_id?: string;
  catalog_property_id?: string;
  value: string;
}

/** The record's property values with the given fields written over them: only the fields mentioned change. */
export function mergeFields(current: unknown, fields: readonly FieldValue[]): PropertyValue[] {
  const merged = new Map<string, string>();
  for (const p of (Array.isArray(current) ? current : []) as PropertyValue[]) merged.set(p.catalog_property_id, p.value);
  for (const f of fields) merged.set((f.catalog_property_id ?? f.catalog_field_id) as string, f.value);
  return [...merged].map(([catalog_property_id, value]) => ({ catalog_property_id, value }));
}
