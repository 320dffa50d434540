import type { JsonObject } from './reference-document.js';
import type { SchemaDeviation } from './reference-deviations.js';

const TIMESTAMPS = new Set(['created_at', 'updated_at', 'deleted_at']);

/**
 * Rewrites the converted reference's component schemas (in place) into what our API
 * must answer:
 *
 * - the declared deviations, per component: renamed, replaced and added properties;
 * - `created_at`, `updated_at` and `deleted_at` are date-time strings (the reference
 *   types them as bare strings; docs/api-contract.md §2, Documents);
 * - resource `attributes` are closed (`unevaluatedProperties: false`). The reference
 *   leaves them open, but then a reference attribute we forgot to rename, or an
 *   internal column that leaked, would pass unseen; so every attribute we add must be
 *   declared in the deviation map. The envelopes (document, `data`, `links`, `meta`,
 *   error objects) stay open, as JSON:API lets them carry further members.
 */
export function applyDeviations(schemas: JsonObject, deviations: Readonly<Record<string, readonly SchemaDeviation[]>>): void {
  for (const [name, list] of Object.entries(deviations)) {
    const schema = schemas[name];
    if (!schema?.properties) throw new Error(`deviation for ${name}: the reference has no such object schema`);
    for (const deviation of list) applyOne(name, schema, deviation);
  }
  for (const schema of Object.values<JsonObject>(schemas)) {
    // A few reference components (schedule_rotation_active_day) list properties and
    // required ones without saying they are objects, which ajv's strict types refuse.
    if (schema.properties && schema.type === undefined) schema.type = 'object';
    markTimestamps(schema);
    closeAttributes(schema);
  }
}

function applyOne(name: string, schema: JsonObject, deviation: SchemaDeviation): void {
  const properties: JsonObject = schema.properties;
  const missing = (p: string) => new Error(`deviation for ${name}: the reference has no property ${p}`);
  for (const [from, to] of Object.entries(deviation.renames ?? {})) {
    if (!(from in properties)) throw missing(from);
    properties[to] = properties[from];
    delete properties[from];
    if (Array.isArray(schema.required)) schema.required = schema.required.map((r: string) => (r === from ? to : r));
  }
  for (const [property, replacement] of Object.entries(deviation.replaces ?? {})) {
    if (!(property in properties)) throw missing(property);
    properties[property] = replacement;
  }
  for (const [property, added] of Object.entries(deviation.adds ?? {})) {
    if (property in properties) throw new Error(`deviation for ${name}: ${property} is the reference's already; replace it instead`);
    properties[property] = added;
  }
}

function markTimestamps(schema: JsonObject): void {
  for (const [property, sub] of Object.entries<JsonObject>(schema.properties ?? {})) {
    const isString = sub.type === 'string' || (Array.isArray(sub.type) && sub.type.includes('string'));
    if (TIMESTAMPS.has(property) && isString && !sub.format) sub.format = 'date-time';
  }
}

function closeAttributes(schema: JsonObject): void {
  const data = schema.properties?.data;
  const resource = data?.type === 'array' ? data.items : data;
  const attributes = resource?.properties?.attributes;
  if (!attributes || attributes.additionalProperties !== undefined) return;
  // A bare $ref (bulk upsert's items) needs its type beside it for ajv's strict types; 2019-09
  // lets unevaluatedProperties see what the $ref evaluates.
  if (attributes.$ref && !attributes.type) attributes.type = 'object';
  attributes.unevaluatedProperties = false;
}
