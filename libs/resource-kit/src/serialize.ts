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

/** How one attribute of a declaration is written: computed, a child list, or its column's value. */
type AttributeSource = { compute: (row: Row) => unknown } | { child: NonNullable<AnyResourceDefinition['children']>[string] } | undefined;

/** What `serialize` reads of a declaration, worked out once per declaration, not per row. */
interface Plan {
  names: readonly string[];
  sources: readonly AttributeSource[];
  timestamps: boolean;
  /**
   * The attributes object's keys in their order, every value null: each record's is a copy
   * of it, so all have one shape from the start, rather than growing key by key (and
   * reallocating its property store) for each record.
   */
  template: Record<string, unknown>;
}

/**
 * A child list as presented. A function of its own: a closure over the loop's `source`
 * in serialize would make V8 allocate a context for every attribute of every record.
 */
function presentChildren(spec: NonNullable<AnyResourceDefinition['children']>[string], rows: Row[] | undefined): unknown[] {
  return (rows ?? []).map((r) => presentChild(spec, r));
}

const plans = new WeakMap<AnyResourceDefinition, Plan>();

function planOf(def: AnyResourceDefinition): Plan {
  let plan = plans.get(def);
  if (plan) return plan;
  const names = [...def.attributes];
  const sources = names.map((name): AttributeSource => {
    const compute = def.computed?.[name];
    if (compute) return { compute };
    const child = def.children?.[name];
    return child ? { child } : undefined;
  });
  const timestamps = def.timestamps !== false;
  const template: Record<string, unknown> = {};
  for (const name of names) template[name] = null;
  if (timestamps) {
    template.created_at = null;
    template.updated_at = null;
  }
  plan = { names, sources, timestamps, template };
  plans.set(def, plan);
  return plan;
}

/**
 * A stored (or computed) row as the JSON:API resource object the API returns and events
 * carry: declared attributes in order (computed ones and children included), the
 * timestamps, and `relationships` when declared.
 */
export function serialize(def: AnyResourceDefinition, row: Row): ResourceObject {
  const { names, sources, timestamps, template } = planOf(def);
  const attributes: Record<string, unknown> = { ...template };
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i]!;
    const source = sources[i];
    if (source === undefined) attributes[name] = jsonValue(row[name]) ?? null;
    else if ('compute' in source) attributes[name] = source.compute(row) ?? null;
    else attributes[name] = presentChildren(source.child, row[name] as Row[] | undefined);
  }
  if (timestamps) {
    attributes.created_at = jsonValue(row.created_at);
    attributes.updated_at = jsonValue(row.updated_at);
  }
  const rels = relationships(def, row);
  return rels
    ? { id: String(row.id), type: def.type, attributes, relationships: rels }
    : { id: String(row.id), type: def.type, attributes };
}
