import type { ResourceObject } from '@firewatch/jsonapi';
import type { AnyResourceDefinition } from './resource-definition.js';
import type { Row } from './resource-shapes.js';
import { presentChild } from './children.repository.js';
import { jsonValue } from './json-value.js';

export { jsonValue } from './json-value.js';

type Linkage = { id: string; type: string };

function relationships(def: AnyResourceDefinition, row: Row): Record<string, { data: Linkage | Linkage[] | null }> | undefined {
  if (!def.relationships) return undefined;
  const out: Record<string, { data: Linkage | Linkage[] | null }> = {};
  for (const [name, rel] of Object.entries(def.relationships)) {
    const raw = row[rel.column];
    if (rel.many) out[name] = { data: Array.isArray(raw) ? raw.map((id) => ({ id: String(id), type: rel.type })) : [] };
    else out[name] = { data: raw === null || raw === undefined ? null : { id: String(raw), type: rel.type } };
  }
  return out;
}

/**
 * A stored (or computed) row as the JSON:API resource object the API returns and events
 * carry: declared attributes in order (computed ones and children included), the
 * timestamps, and `relationships` when declared.
 */
export function serialize(def: AnyResourceDefinition, row: Row): ResourceObject {
  const attributes: Record<string, unknown> = {};
  for (const name of def.attributes) {
    const compute = def.computed?.[name];
    const child = def.children?.[name];
    if (compute) attributes[name] = compute(row) ?? null;
    else if (child) attributes[name] = ((row[name] as Row[] | undefined) ?? []).map((r) => presentChild(child, r));
    else attributes[name] = jsonValue(row[name]) ?? null;
  }
  if (def.timestamps !== false) {
    attributes.created_at = jsonValue(row.created_at);
    attributes.updated_at = jsonValue(row.updated_at);
  }
  const rels = relationships(def, row);
  return rels
    ? { id: String(row.id), type: def.type, attributes, relationships: rels }
    : { id: String(row.id), type: def.type, attributes };
}
