import type { ResourceObject } from '@firewatch/jsonapi';
import type { ResourceDefinition, Row } from './resource-definition.js';

function value(v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : v;
}

/** A stored row as the JSON:API resource object the API returns (and events carry). */
export function serialize(def: ResourceDefinition, row: Row): ResourceObject {
  const attributes: Record<string, unknown> = {};
  for (const name of def.attributes) {
    const compute = def.computed?.[name];
    attributes[name] = (compute ? compute(row) : value(row[name])) ?? null;
  }
  attributes.created_at = value(row.created_at);
  attributes.updated_at = value(row.updated_at);
  return { id: String(row.id), type: def.type, attributes };
}
