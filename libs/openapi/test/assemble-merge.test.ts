import { z } from 'zod';
import {
  assembleDocument,
  BEARER,
  collectionTag,
  fromZod,
  listOperations,
  listParameters,
  mergeDocuments,
  ref,
  resourceSchemas,
  type OpenApiPart,
} from '../src/index.js';

const op = (operationId: string) => ({ operationId, security: BEARER, responses: { '200': { description: 'ok' } } });
const things: OpenApiPart = {
  paths: { '/v1/things': { get: op('list_things') }, '/v1/things/{id}': { get: op('get_things') } },
  schemas: resourceSchemas('things', { name: { type: 'string' } }),
};
const others: OpenApiPart = { paths: { '/v1/others': { post: op('create_others') } }, schemas: { shared: { type: 'string' } } };

describe('assembleDocument', () => {
  const doc = assembleDocument({ title: 'T', version: '1' }, [things, others]);

  it('is a 3.1 document with the shared components, the bearer scheme and every part', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['errors_list', 'links', 'meta', 'rate_limited', 'things_resource', 'things_list', 'shared']),
    );
    expect(doc.components.securitySchemes).toHaveProperty('bearer_auth.scheme', 'bearer');
    expect(listOperations(doc).map((o) => `${o.method} ${o.path}`)).toEqual(['get /v1/things', 'get /v1/things/{id}', 'post /v1/others']);
  });

  it('groups untagged operations by collection and lists the tags', () => {
    expect(doc.paths['/v1/things/{id}'].get.tags).toEqual(['things']);
    expect(doc.tags).toEqual([{ name: 'things' }, { name: 'others' }]);
    expect(collectionTag('/v1/webhooks/endpoints/{id}/deliveries')).toBe('webhooks/endpoints');
  });

  it('leaves its parts untouched', () => {
    expect(things.paths['/v1/things']).toEqual({ get: op('list_things') });
  });

  it('refuses one operation declared twice, or one schema name in two shapes', () => {
    expect(() =>
      assembleDocument({ title: 'T', version: '1' }, [things, { paths: { '/v1/things': { get: op('again') } }, schemas: {} }]),
    ).toThrow(/GET \/v1\/things is declared twice/);
    expect(() => assembleDocument({ title: 'T', version: '1' }, [others, { paths: {}, schemas: { shared: { type: 'integer' } } }])).toThrow(
      /schema shared/,
    );
  });
});

describe('mergeDocuments', () => {
  const a = assembleDocument({ title: 'A', version: '1' }, [things]);
  const b = assembleDocument({ title: 'B', version: '1' }, [others]);

  it('keeps the chosen paths of each source with their schemas', () => {
    const { document, conflicts } = mergeDocuments({ title: 'All', version: '1' }, [
      { name: 'a', document: a, keepPath: (p) => p !== '/v1/things/{id}' },
      { name: 'b', document: b },
    ]);
    expect(conflicts).toEqual([]);
    expect(Object.keys(document.paths)).toEqual(['/v1/things', '/v1/others']);
    expect(document.components.schemas).toHaveProperty('things_list');
    expect(document.components.schemas).toHaveProperty('shared');
    expect(document.info.title).toBe('All');
  });

  it('reports a path two sources serve, and a schema they shape differently, keeping the first', () => {
    const clash = assembleDocument({ title: 'C', version: '1' }, [
      { paths: { '/v1/others': { get: op('x') } }, schemas: { shared: { type: 'integer' } } },
    ]);
    const { document, conflicts } = mergeDocuments({ title: 'All', version: '1' }, [
      { name: 'b', document: b },
      { name: 'c', document: clash },
    ]);
    expect(conflicts).toEqual([
      expect.stringMatching(/^\/v1\/others: served by b and c/),
      expect.stringMatching(/^schema shared: c's differs/),
    ]);
    expect(document.paths['/v1/others']).toHaveProperty('post');
    expect(document.components.schemas.shared).toEqual({ type: 'string' });
  });
});

describe('schema helpers', () => {
  it('describes a resource, its answer and its page', () => {
    const s = resourceSchemas('things', { name: { type: 'string' } }, { included: ['parts'] }) as Record<string, any>;
    expect(s.things_resource.properties.attributes).toEqual({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' } },
    });
    expect(s.things_response.properties).toEqual({
      data: ref('things_resource'),
      included: { type: 'array', items: ref('parts_resource') },
    });
    expect(s.things_list.required).toEqual(['data', 'links', 'meta']);
  });

  it('turns a zod input schema into draft 2020-12 JSON Schema without its $schema', () => {
    const schema = fromZod(z.strictObject({ name: z.string().min(1), note: z.string().nullable().optional() }));
    expect(schema).not.toHaveProperty('$schema');
    expect(schema).toMatchObject({ type: 'object', required: ['name'], additionalProperties: false });
  });

  it('inlines the $defs of a recursive schema, which would otherwise point at the document root', () => {
    const schema = fromZod(z.strictObject({ payload: z.json() }));
    const text = JSON.stringify(schema);
    expect(schema).not.toHaveProperty('$defs');
    expect(text).not.toContain('$ref');
    expect(text).toContain('"type":"array"');
  });

  it('lists the query parameters parseListQuery accepts', () => {
    const names = listParameters({
      filters: { name: 'string', active: 'boolean', created_at: 'date', q: 'search' },
      sorts: ['name'],
      page: { maxSize: 50 },
    }).map((p) => p.name);
    expect(names).toEqual([
      'page[number]',
      'page[size]',
      'filter[name]',
      'filter[name][not_eq]',
      'filter[name][in]',
      'filter[name][not_in]',
      'filter[active]',
      'filter[active][not_eq]',
      'filter[active][in]',
      'filter[active][not_in]',
      'filter[created_at]',
      'filter[created_at][gt]',
      'filter[created_at][gte]',
      'filter[created_at][lt]',
      'filter[created_at][lte]',
      'filter[q]',
      'sort',
    ]);
  });
});
