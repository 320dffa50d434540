import { z } from 'zod';
import { ref } from './components.js';
import type { Json } from './openapi.types.js';

/**
 * JSON Schema (draft 2020-12, the dialect OpenAPI 3.1 embeds) of what a zod schema
 * accepts as input, or with `output` of what it produces.
 */
export function fromZod(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io }) as Json;
  return $defs ? inlineDefs(rest, $defs as Record<string, Json>, new Set()) : rest;
}

const LOCAL_DEF = '#/$defs/';

/**
 * Replaces `#/$defs/...` references (a recursive schema such as `z.json()`) with the
 * definition itself: such a reference would resolve against the whole OpenAPI document
 * once the schema sits in it. A definition met again inside itself becomes `{}` (any).
 */
function inlineDefs(node: unknown, defs: Record<string, Json>, open: Set<string>): Json {
  if (Array.isArray(node)) return node.map((n) => inlineDefs(n, defs, open)) as unknown as Json;
  if (!node || typeof node !== 'object') return node as Json;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string' && ref.startsWith(LOCAL_DEF)) {
    const name = ref.slice(LOCAL_DEF.length);
    if (open.has(name) || !defs[name]) return {};
    return inlineDefs(defs[name], defs, new Set([...open, name]));
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inlineDefs(v, defs, open)]));
}

/** Options of `resourceSchemas`. */
export interface ResourceSchemaOptions {
  /** Resource types a compound document may carry (`include=`); `'any'` when not known. */
  included?: string[] | 'any';
  /** The `relationships` member's schema, when the resource has one. */
  relationships?: Json;
  /** A computed collection answers `{data, meta}` with a free `meta` and no `links`. */
  computed?: boolean;
  /** The schemas' name stem when two resources of one document share a type; default the type. */
  name?: string;
  /** Attributes some answers leave out (shown only to some callers); the others are required. */
  optional?: readonly string[];
}

const ANY_RESOURCE: Json = {
  type: 'object',
  required: ['id', 'type'],
  properties: { id: { type: 'string' }, type: { type: 'string' }, attributes: { type: 'object' } },
};

function includedMember(included: ResourceSchemaOptions['included']): Json {
  if (included === 'any') return { included: { type: 'array', items: ANY_RESOURCE } };
  if (!included?.length) return {};
  const items = included.length === 1 ? ref(`${included[0]}_resource`) : { oneOf: included.map((t) => ref(`${t}_resource`)) };
  return { included: { type: 'array', items } };
}

/**
 * The component schemas of a resource, kit-built or hand-written: `<type>_resource`,
 * `<type>_response` (one) and `<type>_list` (a page with `links` and `meta`). Every
 * attribute but the `optional` ones is required: the serializers write each one, null or not.
 */
export function resourceSchemas(type: string, attributes: Record<string, Json>, options: ResourceSchemaOptions = {}): Json {
  const included = includedMember(options.included);
  const page = options.computed ? { meta: { type: 'object' } } : { links: ref('links'), meta: ref('meta') };
  const name = options.name ?? type;
  return {
    [`${name}_resource`]: {
      type: 'object',
      required: ['id', 'type', 'attributes'],
      properties: {
        id: { type: 'string' },
        type: { type: 'string', const: type },
        attributes: {
          type: 'object',
          required: Object.keys(attributes).filter((a) => !options.optional?.includes(a)),
          properties: attributes,
        },
        ...(options.relationships ? { relationships: options.relationships } : {}),
      },
    },
    [`${name}_response`]: { type: 'object', required: ['data'], properties: { data: ref(`${name}_resource`), ...included } },
    [`${name}_list`]: {
      type: 'object',
      required: ['data', ...Object.keys(page)],
      properties: { data: { type: 'array', items: ref(`${name}_resource`) }, ...included, ...page },
    },
  };
}

/**
 * The answer that shows a one-time secret once (an API key's token, an application's
 * client secret): `<type>_response` whose attributes also carry `secret`.
 */
export function issuedResourceSchema(type: string, secret: string, description: string): Json {
  const attributes = { type: 'object', required: [secret], properties: { [secret]: { type: 'string', description } } };
  return {
    type: 'object',
    required: ['data'],
    properties: { data: { allOf: [ref(`${type}_resource`), { type: 'object', properties: { attributes } }] } },
  };
}

/** A request document (`{"data": {"type", "attributes"}}`) whose attributes follow `attributes`. */
export function requestDocumentSchema(type: string, attributes: Json, options: { withId: boolean }): Json {
  return {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        required: ['type', 'attributes'],
        properties: {
          type: { type: 'string', const: type },
          ...(options.withId ? { id: { type: 'string', description: 'When given, must equal the id in the path.' } } : {}),
          attributes,
        },
      },
    },
  };
}

/** Shorthands for attribute schemas: a nullable type, an ISO 8601 date-time, an enum. */
export const schema = {
  string: (description?: string): Json => ({ type: 'string', ...(description ? { description } : {}) }),
  nullable: (type: string, description?: string): Json => ({ type: [type, 'null'], ...(description ? { description } : {}) }),
  dateTime: (nullable = false): Json => ({ type: nullable ? ['string', 'null'] : 'string', format: 'date-time' }),
  enum: (values: readonly string[], nullable = false): Json => ({
    type: nullable ? ['string', 'null'] : 'string',
    enum: nullable ? [...values, null] : [...values],
  }),
  array: (items: Json, nullable = false): Json => ({ type: nullable ? ['array', 'null'] : 'array', items }),
};
