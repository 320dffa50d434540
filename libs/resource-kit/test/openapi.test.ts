import { z } from 'zod';
import { assembleDocument } from '@firewatch/openapi';
import { createResourceRegistry, defineResource, registryOpenApi, type AnyResourceDefinition } from '../src/index.js';
import { boards, cards, rules, tags, tallies, templates } from './support/fixture.resources.js';

const things = defineResource({
  type: 'things',
  path: '/v1/things',
  table: 'things',
  event: 'thing',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ name: z.string() }),
  update: z.strictObject({ name: z.string() }).partial(),
  attributes: ['name'],
  filters: { name: 'string', created_at: 'date' },
  sorts: ['name'],
  operations: ['list', 'get', 'create'],
});

// The document of `defs` alone, from a registry that also holds what they name (a parent).
const buildOpenApiDocument = (info: { title: string; version: string }, defs: AnyResourceDefinition[]) => {
  const registry = createResourceRegistry([...new Set<AnyResourceDefinition>([...defs, boards, cards, rules, templates, tags, tallies])]);
  return assembleDocument(
    info,
    registryOpenApi(registry).filter((_, i) => defs.includes(registry.declarations[i] as AnyResourceDefinition)),
  );
};

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

describe('OpenAPI of a permission beyond role and capability', () => {
  const vault = defineResource({
    ...things,
    type: 'vaults',
    path: '/v1/vaults',
    operations: ['list', 'get', 'create', 'update', 'delete'],
    permission: { scope: null, side: 'ir', adminOnly: true, unrestricted: true, allScope: true },
  });
  const doc = buildOpenApiDocument({ title: 't', version: '1' }, [things, vault]) as any;

  it('states it on every operation of the declaration, and nothing where there is none', () => {
    const needs = 'Needs the admin role, a credential limited by neither records nor groups and, for OAuth tokens, the `all` scope.';
    const ops = ['/v1/vaults', '/v1/vaults/{id}'].flatMap((p) =>
      Object.entries(doc.paths[p]).map(([m, op]: [string, any]) => [m, p, op.description]),
    );
    expect(ops).toHaveLength(6);
    expect(ops).toEqual(ops.map(([m, p]) => [m, p, needs]));
    expect(doc.paths['/v1/things'].get.description).toBeUndefined();
  });
});

describe('OpenAPI of the grown declaration keys', () => {
  const paths = (defs: Parameters<typeof buildOpenApiDocument>[1]) =>
    (buildOpenApiDocument({ title: 't', version: '1' }, defs) as any).paths;

  it('documents nested and several collection paths, actions, verbs and the empty delete', () => {
    const doc = paths([cards, tags, rules, tallies]);
    expect(Object.keys(doc['/v1/boards/{board_id}/cards'])).toEqual(['get', 'post']);
    expect(doc['/v1/boards/{board_id}/cards'].get.parameters[0]).toMatchObject({ name: 'board_id', in: 'path', required: true });
    expect(Object.keys(doc['/v1/cards/{id}'])).toEqual(['get', 'patch', 'delete']);
    expect(doc['/v1/red/tags'].post.operationId).toBe('create_tags');
    expect(doc['/v1/blue/tags'].post.operationId).toBe('create_tags_in_blue');
    expect(doc['/v1/blue/tags/bulk_delete'].post.requestBody.content['application/vnd.api+json'].schema.required).toEqual(['ids']);
    expect(Object.keys(doc['/v1/rules/{id}'])).toEqual(['get', 'put', 'delete']);
    expect(doc['/v1/rules/{id}'].delete.responses['200'].content).toBeUndefined();
    expect(doc['/v1/boards/{board_id}/tallies'].get.parameters.map((p: any) => p.name)).toContain('days');
    const params = doc['/v1/tallies'].get.parameters;
    expect(params.find((p: any) => p.name === 'days').required).toBe(true);
    expect(params.find((p: any) => p.name === 'board').required).toBeUndefined();
    // A declaration's `name` keeps its operations and schemas apart from another of its type.
    expect(doc['/v1/boards/{board_id}/tallies'].get.operationId).toBe('list_board_tallies');
    expect(doc['/v1/tallies'].get.operationId).toBe('list_board_tallies_in_tallies');
    const schemas = (buildOpenApiDocument({ title: 't', version: '1' }, [tallies]) as any).components.schemas;
    expect(schemas.board_tallies_resource.properties.type).toEqual({ type: 'string', const: 'tallies' });
    expect(schemas.tallies_resource).toBeUndefined();
  });

  it('gives real attribute schemas, children and relationships', () => {
    const schemas = (buildOpenApiDocument({ title: 't', version: '1' }, [cards, rules]) as any).components.schemas;
    const rule = schemas.rules_resource.properties.attributes;
    expect(rule.required).toEqual(['name', 'conditions', 'created_at', 'updated_at']);
    expect(rule.properties.name).toMatchObject({ type: 'string' });
    expect(rule.properties.conditions.items.properties).toMatchObject({ id: { type: 'string' }, field: { type: 'string' } });
    expect(schemas.cards_resource.properties.relationships.properties.board).toBeDefined();
  });
});
