import type { z } from 'zod';
import { describePermission } from '@firewatch/auth';
import {
  BEARER as security,
  errorResponses as errors,
  fromZod,
  IF_MATCH,
  IF_NONE_MATCH,
  includeParameter,
  jsonApiContent as content,
  listParameters,
  NOT_MODIFIED,
  pathParameter,
  ref,
  requestDocumentSchema,
  resourceSchemas,
  taggedResponse,
  type Json,
} from '@firewatch/openapi';
import { nameOf, operationsOf, type AnyResourceDefinition } from './resource-definition.js';
import type { ActionSpec, CollectionRoute } from './resource-shapes.js';
import { listQuerySpec } from './resource.routes.js';
import { collectionsOf, itemPathOf, pathParams } from './resource-paths.js';
import { attributeSchemas } from './resource-schemas.js';
import { includeNames } from './includes.js';
import type { AnyResourceRegistry } from './resource-registry.js';

function queryParams(def: AnyResourceDefinition): Json[] {
  const spec = listQuerySpec(def);
  const params = listParameters({
    filters: spec.filters,
    sorts: spec.sorts,
    includes: spec.includes,
    page: { maxSize: spec.page?.maxSize ?? 100 },
    cursor: !def.source,
  });
  for (const [name, schema] of Object.entries(def.source?.params.shape ?? {})) {
    const required = !(schema as z.ZodType).safeParse(undefined).success;
    params.push({ name, in: 'query', ...(required ? { required } : {}), schema: fromZod(schema as z.ZodType) });
  }
  return params;
}

/** Summaries for the docs: "List environments", "Create an environment". */
function nouns(def: AnyResourceDefinition): { one: string; many: string } {
  const many = def.summary?.plural ?? nameOf(def).replace(/_/g, ' ');
  const singular = def.summary?.singular ?? many.replace(/s$/, '');
  return { one: `${/^[aeiou]/.test(singular) ? 'an' : 'a'} ${singular}`, many };
}

/** The operation's `description`: `lead` if given, then what the permission demands beyond role and capability. */
function permissionNote(def: AnyResourceDefinition, lead?: string): Json {
  const note = [lead, describePermission(def.permission)].filter(Boolean).join(' ');
  return note ? { description: note } : {};
}

/** What a write needs beyond the permission (`ownerGroups.writers`), for the writes' descriptions. */
function writersLead(def: AnyResourceDefinition): string | undefined {
  if (def.ownerGroups?.writers !== 'members') return undefined;
  return "Writes need the admin role or a group-scoped key holding one of the record's owner groups (403 `not_granted` otherwise).";
}

function pathParameters(path: string, def: AnyResourceDefinition, parent?: string): Json[] {
  return pathParams(path).map((name) =>
    pathParameter(name, name === 'id' ? (def.slug ? 'UUID or slug' : 'UUID') : (parent ?? 'The parent record (UUID)')),
  );
}

/** The component schemas of one resource: its resource object, request and response documents. */
function schemasOf(def: AnyResourceDefinition): Json {
  const t = nameOf(def);
  const { response, create, update } = attributeSchemas(def);
  const relationships = def.relationships && {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(def.relationships).map(([name, r]) => {
        const linkage = { type: 'object', required: ['id', 'type'], properties: { id: { type: 'string' }, type: { const: r.type } } };
        const data = r.many ? { type: 'array', items: linkage } : { anyOf: [linkage, { type: 'null' }] };
        return [name, { type: 'object', properties: { data } }];
      }),
    ),
  };
  const known = Object.entries(def.relationships ?? {})
    .filter(([name, r]) => r.resource && !def.includes?.[name])
    .map(([, r]) => r.type);
  const included = def.includes && Object.keys(def.includes).length ? 'any' : known;
  return {
    ...resourceSchemas(def.type, response, { included, relationships, computed: Boolean(def.source), name: t, optional: def.writersOnly }),
    ...(create ? { [`new_${t}`]: requestDocumentSchema(def.type, create, { withId: false }) } : {}),
    ...(update ? { [`update_${t}`]: requestDocumentSchema(def.type, update, { withId: true }) } : {}),
  };
}

function collectionOps(def: AnyResourceDefinition, route: CollectionRoute, suffix: string, parent?: string): Json {
  const ops = operationsOf(def);
  const t = nameOf(def);
  const { one, many } = nouns(def);
  const where = route.summary ? ` (${route.summary})` : '';
  const parameters = pathParameters(route.path, def, parent);
  const parentMissing = def.parent ? [404] : [];
  const out: Json = {};
  if (ops.has('list')) {
    out.get = {
      operationId: `list_${t}${suffix}`,
      summary: `List ${many}${where}`,
      ...permissionNote(def, [def.description, def.source?.description].filter(Boolean).join(' ')),
      security,
      parameters: [...parameters, ...queryParams(def)],
      responses: { '200': { description: 'success', ...content(ref(`${t}_list`)) }, ...errors(400, 401, 403, ...parentMissing, 429) },
    };
  }
  if (ops.has('create')) {
    out.post = {
      operationId: `create_${t}${suffix}`,
      summary: `Create ${one}${where}`,
      ...permissionNote(def, [def.description, writersLead(def)].filter(Boolean).join(' ')),
      security,
      parameters,
      requestBody: { required: true, ...content(ref(`new_${t}`)) },
      responses: {
        '201': { description: 'created', ...content(ref(`${t}_response`)) },
        ...errors(400, 401, 403, ...parentMissing, 409, 415, 422, 429),
      },
    };
  }
  return out;
}

function itemOps(def: AnyResourceDefinition, parent?: string): Json {
  const ops = operationsOf(def);
  const t = nameOf(def);
  const noun = nouns(def).one;
  const parameters = pathParameters(itemPathOf(def), def, parent);
  const one = { '200': { description: 'success', ...content(ref(`${t}_response`)) } };
  const tagged = { '200': taggedResponse(one['200']) };
  const includes = includeNames(def);
  const out: Json = {};
  if (ops.has('get')) {
    out.get = {
      operationId: `get_${t}`,
      summary: `Get ${noun}`,
      ...permissionNote(def),
      security,
      parameters: [
        ...parameters,
        ...(includes.length ? [includeParameter(includes)] : []),
        ...Object.entries(def.getFlags ?? {}).map(([name, description]) => ({
          name,
          in: 'query',
          schema: { type: 'boolean' },
          description,
        })),
        IF_NONE_MATCH,
      ],
      responses: { ...tagged, ...NOT_MODIFIED, ...errors(400, 401, 403, 404, 429) },
    };
  }
  if (ops.has('update')) {
    for (const method of def.updateMethods ?? ['put', 'patch']) {
      out[method] = {
        operationId: `${method === 'put' ? 'update' : 'patch'}_${t}`,
        summary: `Update ${noun}`,
        ...permissionNote(def, writersLead(def)),
        security,
        parameters: [...parameters, IF_MATCH],
        requestBody: { required: true, ...content(ref(`update_${t}`)) },
        responses: { ...tagged, ...errors(400, 401, 403, 404, 409, 412, 415, 422, 429) },
      };
    }
  }
  if (ops.has('delete')) {
    const answer = def.deleteAnswer === 'empty' ? { '200': { description: 'deleted; empty body' } } : one;
    const refusable = def.hooks?.beforeRemove ? [422] : [];
    out.delete = {
      operationId: `delete_${t}`,
      summary: `Delete ${noun}`,
      ...permissionNote(def, writersLead(def)),
      security,
      parameters: [...parameters, IF_MATCH],
      responses: { ...answer, ...errors(401, 403, 404, 412, ...refusable, 429) },
    };
  }
  return out;
}

function actionOp(def: AnyResourceDefinition, action: ActionSpec<unknown>, path: string, suffix: string, parent?: string): Json {
  const status = String(action.response?.status ?? 200);
  const missing = action.on === 'item' || action.hiddenFromRecordKeys || def.parent ? [404] : [];
  // An item action that writes judges If-Match on the locked record (resource.service.ts).
  const guarded = action.on === 'item' && action.capabilities.some((c) => c !== 'read');
  return {
    operationId: `${action.name}_${nameOf(def)}${suffix}`,
    summary: action.summary ?? `${action.name.replace(/_/g, ' ')} (${nouns(def).many})`,
    ...permissionNote(def),
    security,
    parameters: [...pathParameters(path, def, parent), ...(guarded ? [IF_MATCH] : [])],
    ...(action.body ? { requestBody: { required: true, ...content(fromZod(action.body)) } } : {}),
    responses: {
      [status]: {
        description: action.response?.description ?? 'success',
        ...(action.response?.schema ? content(action.response.schema) : {}),
      },
      ...errors(400, 401, 403, ...missing, 409, ...(guarded ? [412] : []), 415, 422, 429),
    },
  };
}

/** How the parent's path parameter is described: the parent declaration's noun, or a loaded parent's own. */
function parentText(def: AnyResourceDefinition, registry: AnyResourceRegistry): string | undefined {
  if (!def.parent) return undefined;
  if ('load' in def.parent) return `The ${def.parent.noun} (${def.parent.idFormat})`;
  const parent = registry.get(def.parent.resource);
  return `The parent ${parent.summary?.singular ?? 'record'} (UUID${parent.slug ? ' or slug' : ''})`;
}

/** The paths and component schemas of one declared resource, as `assembleDocument` takes them. */
function resourceOpenApi(def: AnyResourceDefinition, registry: AnyResourceRegistry): { paths: Json; schemas: Json } {
  const parent = parentText(def, registry);
  const paths: Record<string, Json> = {};
  const add = (path: string, ops: Json) => {
    if (Object.keys(ops).length) paths[path] = { ...(paths[path] ?? {}), ...ops };
  };
  const collections = collectionsOf(def);
  const suffixOf = (path: string, i: number) => (i === 0 ? '' : `_in_${path.split('/')[2]}`);
  collections.forEach((route, i) => add(route.path, collectionOps(def, route, suffixOf(route.path, i), parent)));
  add(itemPathOf(def), itemOps(def, parent));
  for (const action of (def.actions ?? []) as ActionSpec<unknown>[]) {
    const bases = action.on === 'item' ? [itemPathOf(def)] : collections.map((c) => c.path);
    bases.forEach((base, i) => {
      const path = `${base}/${action.path ?? action.name}`;
      add(path, { [action.method ?? 'post']: actionOp(def, action, path, suffixOf(base, i), parent) });
    });
  }
  return { paths, schemas: schemasOf(def) };
}

/** The paths and component schemas of every declaration of a registry, as `assembleDocument` takes them. */
export function registryOpenApi(registry: AnyResourceRegistry): { paths: Json; schemas: Json }[] {
  return registry.declarations.map((def) => resourceOpenApi(def, registry));
}
