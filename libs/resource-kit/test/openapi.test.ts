import { z } from 'zod';
import { buildOpenApiDocument, defineResource } from '../src/index.js';

const things = defineResource({
  type: 'things', path: '/v1/things', table: 'things', event: 'thing',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ name: z.string() }),
  update: z.strictObject({ name: z.string() }).partial(),
  attributes: ['name'],
  filters: { name: 'string', created_at: 'date' },
  sorts: ['name'],
  operations: ['list', 'get', 'create'],
});

describe('OpenAPI from a declaration', () => {
  const doc = buildOpenApiDocument({ title: 't', version: '1' }, [things]) as any;

  it('has exactly the declared operations', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths['/v1/things'])).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/things/{id}'])).toEqual(['get']);
  });

  it('documents filters and the strict request schema', () => {
    const names = doc.paths['/v1/things'].get.parameters.map((p: any) => p.name);
    expect(names).toEqual(expect.arrayContaining(['filter[name]', 'filter[name][in]', 'filter[created_at][gte]', 'sort']));
    const attrs = doc.components.schemas.new_things.properties.data.properties.attributes;
    expect(attrs.required).toEqual(['name']);
    expect(attrs.additionalProperties).toBe(false);
  });
});
