import type { JsonObject } from './reference-document.js';

/**
 * A deep copy of an OpenAPI 3.0 document whose Schema Objects are JSON Schema as ajv
 * reads it. The one construct that differs in meaning is `nullable: true`: JSON Schema
 * has no such keyword, so `{type: "string", nullable: true}` becomes
 * `{type: ["string", "null"]}`, and an `enum` beside it gains `null` (the reference
 * declares 110 nullable enums without it, and JSON Schema checks `enum` on its own).
 * `$ref: "#/components/schemas/<name>"` becomes `<componentsId>#/$defs/<name>`: the
 * components are added to ajv as one schema of `$defs` under that id, so a response
 * schema taken out of the document still resolves its references.
 */
export function convertOpenApi30(node: unknown, componentsId: string): unknown {
  if (Array.isArray(node)) return node.map((item) => convertOpenApi30(item, componentsId));
  if (!node || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = convertOpenApi30(value, componentsId);
  if (typeof out.$ref === 'string') out.$ref = out.$ref.replace(COMPONENT_REF, `${componentsId}#/$defs/`);
  if (typeof out.nullable === 'boolean') return withoutNullable(out);
  return out;
}

const COMPONENT_REF = /^#\/components\/schemas\//;

function withoutNullable(schema: JsonObject): JsonObject {
  const { nullable, ...rest } = schema;
  if (!nullable) return rest;
  if (typeof rest.type !== 'string') {
    // Never in the reference today; refuse rather than guess what null should mean here.
    throw new Error(`nullable without a single type is not converted: ${JSON.stringify(schema).slice(0, 200)}`);
  }
  rest.type = [rest.type, 'null'];
  if (Array.isArray(rest.enum) && !rest.enum.includes(null)) rest.enum = [...rest.enum, null];
  return rest;
}
