import type { z } from 'zod';
import { fromZod as jsonSchema, type Json } from '@firewatch/openapi';
import type { AnyResourceDefinition } from './resource-definition.js';

/** A field as responses show it: its output type, or its input type where a transform hides the output. */
function responseField(field: z.ZodType): Json {
  const out = jsonSchema(field, 'output');
  return Object.keys(out).length ? out : jsonSchema(field, 'input');
}

/** The properties of an array's entries, the array possibly nullable (`anyOf` with null). */
function entryProperties(schema: Json): Json {
  const array = (schema.items ? schema : (schema.anyOf as Json[] | undefined)?.find((s) => s.items)) as
    { items?: { properties?: Json } } | undefined;
  return { ...(array?.items?.properties ?? {}) };
}

const TIMESTAMP = { type: 'string', format: 'date-time' };

/** One declared attribute as responses show it. */
function attributeSchema(def: AnyResourceDefinition, name: string, fields: Record<string, z.ZodType>): Json {
  const declared = def.attributeSchemas?.[name];
  if (declared) return declared;
  const child = def.children?.[name];
  if (child) {
    if (child.present) return {};
    const input = fields[child.input ?? name];
    const { _destroy: _never, ...entry } = input ? entryProperties(jsonSchema(input)) : {};
    return { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, ...entry } } };
  }
  return fields[name] ? responseField(fields[name]) : {};
}

/**
 * The JSON Schemas of a resource's attributes: the response's (every declared attribute,
 * present unless `writersOnly`, then the timestamps), and the create and update request
 * attributes (from their zod schemas).
 */
export function attributeSchemas(def: AnyResourceDefinition): { response: Record<string, Json>; create?: Json; update?: Json } {
  const fields = { ...(def.update?.shape ?? {}), ...(def.create?.shape ?? {}) } as Record<string, z.ZodType>;
  const response: Record<string, Json> = Object.fromEntries(def.attributes.map((name) => [name, attributeSchema(def, name, fields)]));
  for (const name of def.writersOnly ?? []) {
    const schema = response[name] ?? {};
    const note = 'Answered only to a caller who may update the record; absent for others.';
    response[name] = { ...schema, description: schema.description ? `${String(schema.description)} ${note}` : note };
  }
  if (def.timestamps !== false) Object.assign(response, { created_at: TIMESTAMP, updated_at: TIMESTAMP });
  return { response, create: def.create && jsonSchema(def.create), update: def.update && jsonSchema(def.update) };
}
