import { z } from 'zod';
import type { AnyResourceDefinition } from './resource-definition.js';

type Json = Record<string, unknown>;

const jsonSchema = (s: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { target: 'draft-2020-12', unrepresentable: 'any', io }) as Json;
  return rest;
};

/** A field as responses show it: its output type, or its input type where a transform hides the output. */
function responseField(field: z.ZodType): Json {
  const out = jsonSchema(field, 'output');
  return Object.keys(out).length ? out : jsonSchema(field, 'input');
}

/** The properties of an array's entries, the array possibly nullable (`anyOf` with null). */
function entryProperties(schema: Json): Json {
  const array = (schema.items ? schema : (schema.anyOf as Json[] | undefined)?.find((s) => s.items)) as { items?: { properties?: Json } } | undefined;
  return { ...(array?.items?.properties ?? {}) };
}

const TIMESTAMP = { type: 'string', format: 'date-time' };

/**
 * The JSON Schemas of a resource's attributes: the response (every declared attribute,
 * always present), and the create and update request attributes (from their zod schemas).
 */
export function attributeSchemas(def: AnyResourceDefinition): { response: Json; create?: Json; update?: Json } {
  const fields: Record<string, z.ZodType> = { ...(def.update?.shape ?? {}), ...(def.create?.shape ?? {}) } as Record<string, z.ZodType>;
  const properties: Record<string, Json> = {};
  for (const name of def.attributes) {
    const declared = def.attributeSchemas?.[name];
    const child = def.children?.[name];
    if (declared) properties[name] = declared;
    else if (child) {
      const input = fields[child.input ?? name];
      const { _destroy: _never, ...entry } = input ? entryProperties(jsonSchema(input, 'input')) : {};
      properties[name] = child.present ? {} : { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, ...entry } } };
    } else if (fields[name]) properties[name] = responseField(fields[name]);
    else properties[name] = {};
  }
  const names = [...def.attributes];
  if (def.timestamps !== false) {
    properties.created_at = TIMESTAMP;
    properties.updated_at = TIMESTAMP;
    names.push('created_at', 'updated_at');
  }
  return {
    response: { type: 'object', required: names, properties },
    create: def.create && jsonSchema(def.create, 'input'),
    update: def.update && jsonSchema(def.update, 'input'),
  };
}
