import { z } from 'zod';
import { ALL_OPERATIONS, type ResourceDefinition } from './resource-definition.js';
import { listQuerySpec } from './resource.routes.js';

type Json = Record<string, unknown>;
const MEDIA = 'application/vnd.api+json';

const schemaOf = (s: z.ZodType): Json =>
  z.toJSONSchema(s, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) as Json;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const content = (schema: Json) => ({ content: { [MEDIA]: { schema } } });
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [String(c), { description: 'error', ...content(ref('errors_list')) }]));

function queryParams(def: ResourceDefinition): Json[] {
  const spec = listQuerySpec(def);
  const params: Json[] = [
    { name: 'page[number]', in: 'query', schema: { type: 'integer', minimum: 1 } },
    { name: 'page[size]', in: 'query', schema: { type: 'integer', minimum: 1, maximum: spec.page?.maxSize ?? 100 } },
  ];
  for (const [name, kind] of Object.entries(spec.filters ?? {})) {
    const ops = kind === 'date' ? ['gt', 'gte', 'lt', 'lte'] : kind === 'search' || kind === 'boolean' ? [] : ['eq', 'not_eq', 'in', 'not_in'];
    if (kind !== 'date') params.push({ name: `filter[${name}]`, in: 'query', schema: { type: 'string' } });
    for (const op of ops) params.push({ name: `filter[${name}][${op}]`, in: 'query', schema: { type: 'string' } });
  }
  if (spec.sorts?.length) params.push({ name: 'sort', in: 'query', schema: { type: 'string' }, description: `Allowed: ${spec.sorts.join(', ')}; prefix - for descending.` });
  if (spec.includes?.length) params.push({ name: 'include', in: 'query', schema: { type: 'string' }, description: `Allowed: ${spec.includes.join(', ')}.` });
  return params;
}

/** The paths and component schemas of one declared resource. */
export function resourceOpenApi(def: ResourceDefinition): { paths: Json; schemas: Json } {
  const ops = new Set(def.operations ?? ALL_OPERATIONS);
  const t = def.type;
  const attributes: Json = { type: 'object', properties: Object.fromEntries([...def.attributes, 'created_at', 'updated_at'].map((a) => [a, {}])) };
  const resource = { type: 'object', required: ['id', 'type', 'attributes'], properties: { id: { type: 'string' }, type: { const: t }, attributes } };
  const request = (attrs: z.ZodType, withId: boolean) => ({
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        required: ['type', 'attributes'],
        properties: { type: { const: t }, ...(withId ? { id: { type: 'string' } } : {}), attributes: schemaOf(attrs) },
      },
    },
  });
  const schemas: Json = {
    [`${t}_resource`]: resource,
    [`new_${t}`]: request(def.create, false),
    [`update_${t}`]: request(def.update, true),
    [`${t}_response`]: { type: 'object', required: ['data'], properties: { data: ref(`${t}_resource`) } },
    [`${t}_list`]: {
      type: 'object',
      required: ['data', 'links', 'meta'],
      properties: { data: { type: 'array', items: ref(`${t}_resource`) }, links: ref('links'), meta: ref('meta') },
    },
  };
  const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: def.slug ? 'UUID or slug' : 'UUID' };
  const security = [{ bearer_auth: [] }];
  const collection: Json = {};
  const item: Json = {};
  const one = { '200': { description: 'success', ...content(ref(`${t}_response`)) } };
  if (ops.has('list')) collection.get = { operationId: `list_${t}`, security, parameters: queryParams(def), responses: { '200': { description: 'success', ...content(ref(`${t}_list`)) }, ...errors(400, 401, 403, 429) } };
  if (ops.has('create')) collection.post = { operationId: `create_${t}`, security, requestBody: { required: true, ...content(ref(`new_${t}`)) }, responses: { '201': { description: 'created', ...content(ref(`${t}_response`)) }, ...errors(400, 401, 403, 409, 415, 422, 429) } };
  if (ops.has('get')) item.get = { operationId: `get_${t}`, security, parameters: [idParam], responses: { ...one, ...errors(401, 403, 404, 429) } };
  if (ops.has('update')) {
    const update = { security, parameters: [idParam], requestBody: { required: true, ...content(ref(`update_${t}`)) }, responses: { ...one, ...errors(400, 401, 403, 404, 409, 415, 422, 429) } };
    item.put = { operationId: `update_${t}`, ...update };
    item.patch = { operationId: `patch_${t}`, ...update };
  }
  if (ops.has('delete')) item.delete = { operationId: `delete_${t}`, security, parameters: [idParam], responses: { ...one, ...errors(401, 403, 404, 429) } };
  const paths: Json = {};
  if (Object.keys(collection).length) paths[def.path] = collection;
  if (Object.keys(item).length) paths[`${def.path}/{id}`] = item;
  return { paths, schemas };
}

/** An OpenAPI 3.1 document for a set of declared resources. */
export function buildOpenApiDocument(info: { title: string; version: string }, defs: ResourceDefinition[]): Json {
  const paths: Json = {};
  const schemas: Json = {
    errors_list: {
      type: 'object',
      properties: { errors: { type: 'array', items: { type: 'object', required: ['status', 'title'], properties: { status: { type: 'string' }, code: { type: 'string' }, title: { type: 'string' }, detail: { type: 'string' }, source: { type: 'object' } } } } },
    },
    links: { type: 'object', properties: Object.fromEntries(['self', 'first', 'prev', 'next', 'last'].map((k) => [k, { type: ['string', 'null'] }])) },
    meta: { type: 'object', properties: Object.fromEntries(['current_page', 'next_page', 'prev_page', 'total_count', 'total_pages'].map((k) => [k, { type: ['integer', 'null'] }])) },
  };
  for (const def of defs) {
    const part = resourceOpenApi(def);
    Object.assign(paths, part.paths);
    Object.assign(schemas, part.schemas);
  }
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://localhost:8080' } } }],
    paths,
    components: { schemas, securitySchemes: { bearer_auth: { type: 'http', scheme: 'bearer' } } },
  };
}
