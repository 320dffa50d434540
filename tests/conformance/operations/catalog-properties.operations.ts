import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import type { ConformanceOperation } from '../conformance-operation.js';

const property = (attributes: Record<string, unknown>) => ({ data: { type: 'catalog_properties', attributes } });
const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;
// The reference's item operations declare their 200 without a body; the creates answer this one.
const single = { component: 'catalog_property_response', cite: 'docs/api-contract.md §2 (Status codes of success): the record' } as const;

/** A fresh property of the environments catalog; its id. */
export async function environmentProperty(ctx: ConformanceContext): Promise<string> {
  const res = await ctx.call('POST', '/v1/environments/properties', {
    body: property({ name: `Prop ${randomUUID().slice(0, 8)}`, kind: 'text' }),
  });
  if (res.status !== 201) throw new Error(`fixture: catalog property answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** The collection rows of one catalog's `properties` path. */
function catalogRows(family: string, list: string, create: string): ConformanceOperation[] {
  const path = `/v1/${family}/properties`;
  return [
    {
      method: 'POST',
      path,
      variant: 'every attribute set',
      request: () => ({
        body: property({
          name: `Owner ${randomUUID().slice(0, 8)}`,
          kind: 'reference',
          kind_catalog_id: 'c1',
          multiple: true,
          position: 2,
          required: true,
          external_id: `ext-${randomUUID()}`,
        }),
      }),
      status: 201,
      schema: { reference: create, status: 201 },
    },
    {
      method: 'POST',
      path,
      variant: "the specification's attributes only (kind defaults)",
      request: () => ({
        body: property({
          name: `Spec ${randomUUID().slice(0, 8)}`,
          kind_catalog_id: 'c1',
          multiple: false,
          position: 1,
          required: false,
          external_id: `ext-${randomUUID()}`,
        }),
      }),
      status: 201,
      schema: { reference: create, status: 201 },
    },
    {
      method: 'POST',
      path,
      variant: 'name missing',
      request: () => ({ body: property({ kind: 'text' }) }),
      status: 422,
      schema: { reference: create, status: 422 },
    },
    {
      method: 'POST',
      path,
      variant: 'no credential',
      request: () => ({ body: property({ name: 'Nobody', kind: 'text' }), token: null }),
      status: 401,
      schema: { reference: create, status: 401 },
    },
    { method: 'GET', path, status: 200, schema: { reference: list, status: 200 } },
    {
      method: 'GET',
      path,
      variant: 'filters and sort',
      request: () => ({ query: 'filter[kind]=text&filter[created_at][lte]=2100-01-01T00:00:00Z&sort=-position&page[size]=2' }),
      status: 200,
      schema: { reference: list, status: 200 },
    },
  ];
}

/** Catalog properties (docs/decisions.md, Resources): created per catalog, changed at /v1/catalog_properties/{id}. */
export const catalogPropertyOperations: ConformanceOperation[] = [
  ...catalogRows('environments', 'listEnvironmentCatalogProperties', 'createEnvironmentCatalogProperty'),
  ...catalogRows('services', 'listServiceCatalogProperties', 'createServiceCatalogProperty'),
  ...catalogRows('functionalities', 'listFunctionalityCatalogProperties', 'createFunctionalityCatalogProperty'),
  ...catalogRows('incident_types', 'listIncidentTypeCatalogProperties', 'createIncidentTypeCatalogProperty'),
  // Served by incident-config beside the other catalogs; the gateway routes this one path of /v1/teams there.
  ...catalogRows('teams', 'listGroupCatalogProperties', 'createGroupCatalogProperty'),
  {
    method: 'GET',
    path: '/v1/catalog_properties/{id}',
    request: async (ctx) => ({ params: { id: await environmentProperty(ctx) } }),
    status: 200,
    schema: single,
  },
  {
    method: 'PUT',
    path: '/v1/catalog_properties/{id}',
    request: async (ctx) => ({
      params: { id: await environmentProperty(ctx) },
      body: property({ position: 4, required: true, external_id: null }),
    }),
    status: 200,
    schema: single,
  },
  {
    method: 'DELETE',
    path: '/v1/catalog_properties/{id}',
    request: async (ctx) => ({ params: { id: await environmentProperty(ctx) } }),
    status: 200,
    schema: single,
  },
  // The reference declares no 404 here; the answer is the contract's error document.
  ...(['GET', 'PUT', 'DELETE'] as const).map((method): ConformanceOperation => ({
    method,
    path: '/v1/catalog_properties/{id}',
    variant: 'unknown id',
    request: (ctx) => ({ params: { id: ctx.unknownId }, body: method === 'PUT' ? property({ name: 'x' }) : undefined }),
    status: 404,
    schema: errorDocument,
  })),
];
