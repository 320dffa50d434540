import { z } from 'zod';
import { operationsOf, type AnyResourceDefinition } from './resource-definition.js';
import type { ActionSpec, CollectionRoute } from './resource-shapes.js';
import { listQuerySpec } from './resource.routes.js';
import { collectionsOf, itemPathOf, pathParams } from './resource-paths.js';
import { attributeSchemas } from './resource-schemas.js';

type Json = Record<string, unknown>;
const MEDIA = 'application/vnd.api+json';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const content = (schema: Json) => ({ content: { [MEDIA]: { schema } } });
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [String(c), { description: 'error', ...content(ref('errors_list')) }]));
const security = [{ bearer_auth: [] }];

function queryParams(def: AnyResourceDefinition): Json[] {
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
  for (const [name, schema] of Object.entries(def.source?.params.shape ?? {})) {
    params.push({ name, in: 'query', schema: z.toJSONSchema(schema as z.ZodType, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) });
  }
  return params;
}

const pathParameters = (path: string, def: AnyResourceDefinition) => pathParams(path).map((name) => ({
  name, in: 'path', required: true, schema: { type: 'string' },
  description: name === 'id' ? (def.slug ? 'UUID or slug' : 'UUID') : `The parent ${def.parent?.resource.summary?.singular ?? 'record'}`,
}));

/** The component schemas of one resource: its resource object, request and response documents. */
function schemasOf(def: AnyResourceDefinition): Json {
  const t = def.type;
  const { response, create, update } = attributeSchemas(def);
  const relationships = def.relationships && {
    type: 'object',
    properties: Object.fromEntries(Object.entries(def.relationships).map(([name, r]) => {
      const linkage = { type: 'object', required: ['id', 'type'], properties: { id: { type: 'string' }, type: { const: r.type } } };
      return [name, { type: 'object', properties: { data: r.many ? { type: 'array', items: linkage } : { anyOf: [linkage, { type: 'null' }] } } }];
    })),
  };
  const resource = {
    type: 'object', required: ['id', 'type', 'attributes'],
    properties: { id: { type: 'string' }, type: { const: t }, attributes: response, ...(relationships ? { relationships } : {}) },
  };
  const request = (attributes: Json | undefined, withId: boolean) => attributes && {
    type: 'object', required: ['data'],
    properties: { data: { type: 'object', required: ['type', 'attributes'], properties: { type: { const: t }, ...(withId ? { id: { type: 'string' } } : {}), attributes } } },
  };
  const included = { type: 'array', items: { type: 'object', required: ['id', 'type'], properties: { id: { type: 'string' }, type: { type: 'string' }, attributes: { type: 'object' } } } };
  return Object.fromEntries(Object.entries({
    [`${t}_resource`]: resource,
    [`new_${t}`]: request(create, false),
    [`update_${t}`]: request(update, true),
    [`${t}_response`]: { type: 'object', required: ['data'], properties: { data: ref(`${t}_resource`), included } },
    [`${t}_list`]: {
      type: 'object', required: def.source ? ['data', 'meta'] : ['data', 'links', 'meta'],
      properties: { data: { type: 'array', items: ref(`${t}_resource`) }, included, ...(def.source ? { meta: { type: 'object' } } : { links: ref('links'), meta: ref('meta') }) },
    },
  }).filter(([, v]) => v !== undefined));
}

function collectionOps(def: AnyResourceDefinition, route: CollectionRoute, suffix: string): Json {
  const ops = operationsOf(def);
  const t = def.type;
  const out: Json = {};
  const parameters = pathParameters(route.path, def);
  const summary = route.summary ? { summary: route.summary } : {};
  if (ops.has('list')) out.get = { operationId: `list_${t}${suffix}`, ...summary, security, parameters: [...parameters, ...queryParams(def)], responses: { '200': { description: 'success', ...content(ref(`${t}_list`)) }, ...errors(400, 401, 403, ...(def.parent ? [404] : []), 429) } };
  if (ops.has('create')) out.post = { operationId: `create_${t}${suffix}`, ...summary, security, parameters, requestBody: { required: true, ...content(ref(`new_${t}`)) }, responses: { '201': { description: 'created', ...content(ref(`${t}_response`)) }, ...errors(400, 401, 403, ...(def.parent ? [404] : []), 409, 415, 422, 429) } };
  return out;
}

function itemOps(def: AnyResourceDefinition): Json {
  const ops = operationsOf(def);
  const t = def.type;
  const parameters = pathParameters(itemPathOf(def), def);
  const one = { '200': { description: 'success', ...content(ref(`${t}_response`)) } };
  const out: Json = {};
  if (ops.has('get')) out.get = { operationId: `get_${t}`, security, parameters: [...parameters, ...(def.relationships || def.includes ? [{ name: 'include', in: 'query', schema: { type: 'string' } }] : [])], responses: { ...one, ...errors(400, 401, 403, 404, 429) } };
  if (ops.has('update')) {
    for (const method of def.updateMethods ?? ['put', 'patch']) {
      out[method] = { operationId: `${method === 'put' ? 'update' : 'patch'}_${t}`, security, parameters, requestBody: { required: true, ...content(ref(`update_${t}`)) }, responses: { ...one, ...errors(400, 401, 403, 404, 409, 415, 422, 429) } };
    }
  }
  if (ops.has('delete')) {
    const answer = def.deleteAnswer === 'empty' ? { '200': { description: 'deleted; empty body' } } : one;
    out.delete = { operationId: `delete_${t}`, security, parameters, responses: { ...answer, ...errors(401, 403, 404, 429) } };
  }
  return out;
}

function actionOp(def: AnyResourceDefinition, action: ActionSpec<unknown>, path: string, suffix: string): Json {
  const status = String(action.response?.status ?? 200);
  const body = action.body && { required: true, content: { [MEDIA]: { schema: z.toJSONSchema(action.body, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) } } };
  const answer = action.response?.schema ? content(action.response.schema) : {};
  return {
    operationId: `${action.name}_${def.type}${suffix}`,
    ...(action.summary ? { summary: action.summary } : {}),
    security,
    parameters: pathParameters(path, def),
    ...(body ? { requestBody: body } : {}),
    responses: { [status]: { description: action.response?.description ?? 'success', ...answer }, ...errors(400, 401, 403, ...(action.on === 'item' ? [404] : []), 409, 415, 422, 429) },
  };
}

/** The paths and component schemas of one declared resource. */
export function resourceOpenApi(def: AnyResourceDefinition): { paths: Json; schemas: Json } {
  const paths: Record<string, Json> = {};
  const add = (path: string, ops: Json) => {
    if (Object.keys(ops).length) paths[path] = { ...(paths[path] ?? {}), ...ops };
  };
  const collections = collectionsOf(def);
  const suffixOf = (path: string, i: number) => (i === 0 ? '' : `_in_${path.split('/')[2]}`);
  collections.forEach((route, i) => add(route.path, collectionOps(def, route, suffixOf(route.path, i))));
  add(itemPathOf(def), itemOps(def));
  for (const action of (def.actions ?? []) as ActionSpec<unknown>[]) {
    const bases = action.on === 'item' ? [itemPathOf(def)] : collections.map((c) => c.path);
    bases.forEach((base, i) => {
      const path = `${base}/${action.path ?? action.name}`;
      add(path, { [action.method ?? 'post']: actionOp(def, action, path, suffixOf(base, i)) });
    });
  }
  return { paths, schemas: schemasOf(def) };
}

/** An OpenAPI 3.1 document for a set of declared resources. */
export function buildOpenApiDocument(info: { title: string; version: string }, defs: readonly AnyResourceDefinition[]): Json {
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
