import { z } from 'zod';
import { BEARER as security, errorResponses as errors, jsonApiContent as content, includeParameter, listParameters, pathParameter, ref, type Json } from '@firewatch/openapi';
import { operationsOf, type AnyResourceDefinition } from './resource-definition.js';
import type { ActionSpec, CollectionRoute } from './resource-shapes.js';
import { listQuerySpec } from './resource.routes.js';
import { collectionsOf, itemPathOf, pathParams } from './resource-paths.js';
import { attributeSchemas } from './resource-schemas.js';
import { includeNames } from './includes.js';

const MEDIA = 'application/vnd.api+json';

function queryParams(def: AnyResourceDefinition): Json[] {
  const spec = listQuerySpec(def);
  const params = listParameters({ filters: spec.filters, sorts: spec.sorts, includes: spec.includes, page: { maxSize: spec.page?.maxSize ?? 100 } });
  for (const [name, schema] of Object.entries(def.source?.params.shape ?? {})) {
    params.push({ name, in: 'query', schema: z.toJSONSchema(schema as z.ZodType, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) });
  }
  return params;
}

/** Summaries for the docs: "List environments", "Create an environment". */
function nouns(def: AnyResourceDefinition): { one: string; many: string } {
  const many = def.summary?.plural ?? def.type.replace(/_/g, ' ');
  const singular = def.summary?.singular ?? many.replace(/s$/, '');
  return { one: `${/^[aeiou]/.test(singular) ? 'an' : 'a'} ${singular}`, many };
}

const pathParameters = (path: string, def: AnyResourceDefinition) => pathParams(path).map((name) =>
  pathParameter(name, name === 'id' ? (def.slug ? 'UUID or slug' : 'UUID') : `The parent ${def.parent?.resource.summary?.singular ?? 'record'} (UUID${def.parent?.resource.slug ? ' or slug' : ''})`));

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
  const { one, many } = nouns(def);
  const where = route.summary ? ` (${route.summary})` : '';
  if (ops.has('list')) out.get = { operationId: `list_${t}${suffix}`, summary: `List ${many}${where}`, security, parameters: [...parameters, ...queryParams(def)], responses: { '200': { description: 'success', ...content(ref(`${t}_list`)) }, ...errors(400, 401, 403, ...(def.parent ? [404] : []), 429) } };
  if (ops.has('create')) out.post = { operationId: `create_${t}${suffix}`, summary: `Create ${one}${where}`, security, parameters, requestBody: { required: true, ...content(ref(`new_${t}`)) }, responses: { '201': { description: 'created', ...content(ref(`${t}_response`)) }, ...errors(400, 401, 403, ...(def.parent ? [404] : []), 409, 415, 422, 429) } };
  return out;
}

function itemOps(def: AnyResourceDefinition): Json {
  const ops = operationsOf(def);
  const t = def.type;
  const parameters = pathParameters(itemPathOf(def), def);
  const one = { '200': { description: 'success', ...content(ref(`${t}_response`)) } };
  const out: Json = {};
  const noun = nouns(def).one;
  if (ops.has('get')) out.get = { operationId: `get_${t}`, summary: `Get ${noun}`, security, parameters: [...parameters, ...(def.relationships || def.includes ? [includeParameter(includeNames(def))] : [])], responses: { ...one, ...errors(400, 401, 403, 404, 429) } };
  if (ops.has('update')) {
    for (const method of def.updateMethods ?? ['put', 'patch']) {
      out[method] = { operationId: `${method === 'put' ? 'update' : 'patch'}_${t}`, summary: `Update ${noun}`, security, parameters, requestBody: { required: true, ...content(ref(`update_${t}`)) }, responses: { ...one, ...errors(400, 401, 403, 404, 409, 415, 422, 429) } };
    }
  }
  if (ops.has('delete')) {
    const answer = def.deleteAnswer === 'empty' ? { '200': { description: 'deleted; empty body' } } : one;
    out.delete = { operationId: `delete_${t}`, summary: `Delete ${noun}`, security, parameters, responses: { ...answer, ...errors(401, 403, 404, 429) } };
  }
  return out;
}

function actionOp(def: AnyResourceDefinition, action: ActionSpec<unknown>, path: string, suffix: string): Json {
  const status = String(action.response?.status ?? 200);
  const body = action.body && { required: true, content: { [MEDIA]: { schema: z.toJSONSchema(action.body, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) } } };
  const answer = action.response?.schema ? content(action.response.schema) : {};
  return {
    operationId: `${action.name}_${def.type}${suffix}`,
    summary: action.summary ?? `${action.name.replace(/_/g, ' ')} (${nouns(def).many})`,
    security,
    parameters: pathParameters(path, def),
    ...(body ? { requestBody: body } : {}),
    responses: { [status]: { description: action.response?.description ?? 'success', ...answer }, ...errors(400, 401, 403, ...(action.on === 'item' || action.hiddenFromRecordKeys ? [404] : []), 409, 415, 422, 429) },
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
