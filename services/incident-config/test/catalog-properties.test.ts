import { randomUUID } from 'node:crypto';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

const body = (attributes: Record<string, unknown>) => ({ data: { type: 'catalog_properties', attributes } });
const create = (family: string, attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
  h.call('POST', `/v1/${family}/properties`, { body: body(attributes), principal });
const names = (res: { body: { data: { attributes: { name: string } }[] } }) => res.body.data.map((p) => p.attributes.name);

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'catalog_property.*' });
});

afterAll(async () => {
  await h?.close();
});

describe('catalog properties', () => {
  it('creates under a catalog path, gets, updates with PUT, lists per catalog and deletes', async () => {
    // The path decides the catalog; the body's catalog_type is ignored as the reference does.
    const created = await create('environments', { name: 'Cost centre', kind: 'text', catalog_type: 'service', external_id: 'cc' });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(created.body.data.type).toBe('catalog_properties');
    expect(attributes).toMatchObject({
      catalog_id: 'ae206384-ebad-4160-9281-44419e16c2e5',
      name: 'Cost centre',
      slug: 'cost-centre',
      kind: 'text',
      kind_catalog_id: null,
      multiple: false,
      position: null,
      required: false,
      catalog_type: 'environment',
      external_id: 'cc',
      managed_by: 'api',
    });
    expect(created.headers.get('location')).toBe(`/v1/catalog_properties/${id}`);

    expect((await h.call('GET', `/v1/catalog_properties/${id}`)).body.data.attributes.name).toBe('Cost centre');
    expect((await h.call('GET', '/v1/catalog_properties/cost-centre')).body.data.id).toBe(id);
    expect((await h.call('GET', '/v1/environments/properties')).body.data.map((p: { id: string }) => p.id)).toContain(id);
    expect((await h.call('GET', '/v1/services/properties')).body.data.map((p: { id: string }) => p.id)).not.toContain(id);

    const updated = await h.call('PUT', `/v1/catalog_properties/${id}`, {
      body: body({ name: 'Cost center', kind: 'reference', position: 3, required: true }),
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({
      name: 'Cost center',
      kind: 'reference',
      position: 3,
      required: true,
      catalog_type: 'environment',
    });
    expect((await h.call('PATCH', `/v1/catalog_properties/${id}`, { body: body({ name: 'x' }) })).status).toBe(404);

    const deleted = await h.call('DELETE', `/v1/catalog_properties/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type: 'catalog_properties', attributes: { name: 'Cost center' } });
    expect((await h.call('GET', `/v1/catalog_properties/${id}`)).status).toBe(404);

    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    expect(mine.map((e) => e.routingKey)).toEqual(['catalog_property.created', 'catalog_property.updated', 'catalog_property.deleted']);
    expect(mine[0].body).toMatchObject({ team_id: 1, data: { id, type: 'catalog_properties' } });
  });

  it("accepts the specification's create, without kind, and gives each built-in catalog a fixed catalog_id", async () => {
    const spec = { kind_catalog_id: 'c1', multiple: true, position: 2, required: true };
    const res = await create('functionalities', { name: 'Owner team', ...spec, external_id: 'owner' });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ kind: 'reference', ...spec, catalog_id: 'e713b4ba-7c8a-4352-84de-98787c2d0622' });
    expect((await create('functionalities', { name: 'Notes' })).body.data.attributes.kind).toBe('text');
    const service = (await create('services', { name: 'Notes' })).body.data.attributes;
    expect(service.catalog_id).toBe('20740af2-9453-4fda-9ea2-86956fe775bd');
    expect((await create('services', { name: 'More notes' })).body.data.attributes.catalog_id).toBe(service.catalog_id);
  });

  it('serves the teams catalog at /v1/teams/properties, its properties changed at /v1/catalog_properties/{id}', async () => {
    const team = { team_id: 41 };
    const res = await create('teams', { name: 'Cost centre', catalog_type: 'service' }, team);
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toMatchObject({
      catalog_type: 'team',
      kind: 'text',
      catalog_id: 'c4b0e3a6-5f0b-4d8e-9a51-3f7c2d6e8b14',
    });
    await create('services', { name: 'Not a team one' }, team);
    expect(names(await h.call('GET', '/v1/teams/properties', { principal: team }))).toEqual(['Cost centre']);
    const id = res.body.data.id;
    expect((await h.call('PUT', `/v1/catalog_properties/${id}`, { body: body({ name: 'Budget' }), principal: team })).status).toBe(200);
    expect((await h.call('DELETE', `/v1/catalog_properties/${id}`, { principal: team })).status).toBe(200);
    expect(names(await h.call('GET', '/v1/teams/properties', { principal: team }))).toEqual([]);
  });

  it.each([
    ['missing name', { kind: 'text' }, '/data/attributes/name'],
    ['unknown kind', { name: 'x', kind: 'number' }, '/data/attributes/kind'],
    ['unknown catalog type', { name: 'x', kind: 'text', catalog_type: 'alerts' }, '/data/attributes/catalog_type'],
    ['unknown attribute', { name: 'x', kind: 'text', colour: 'red' }, '/data/attributes/colour'],
    ['non-integer position', { name: 'x', kind: 'text', position: 1.5 }, '/data/attributes/position'],
  ])('refuses %s with a 422 and writes nothing', async (_name, attributes, pointer) => {
    const before = await h.db.knex('catalog_properties').count({ n: '*' });
    const res = await create('functionalities', attributes);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain(pointer);
    expect(await h.db.knex('catalog_properties').count({ n: '*' })).toEqual(before);
  });

  it('keeps a property in its catalog and its external_id unique within the catalog', async () => {
    const id = (await create('services', { name: 'Tier', kind: 'text', external_id: 'tier' })).body.data.id;
    const moved = await h.call('PUT', `/v1/catalog_properties/${id}`, { body: body({ catalog_type: 'environment' }) });
    expect(moved.status).toBe(422);
    expect(moved.body.errors[0].source.pointer).toBe('/data/attributes/catalog_type');
    const same = await h.call('PUT', `/v1/catalog_properties/${id}`, { body: body({ catalog_type: 'service', name: 'Tier 1' }) });
    expect(same.status).toBe(200);

    const dup = await create('services', { name: 'Tier again', kind: 'text', external_id: 'tier' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0].source).toEqual({ pointer: '/data/attributes/external_id' });
    expect((await create('functionalities', { name: 'Tier', kind: 'text', external_id: 'tier' })).status).toBe(201);
    expect((await create('services', { name: 'Tier', kind: 'text', external_id: 'tier' }, { team_id: 2 })).status).toBe(201);
  });

  it('filters by slug, name, kind and created_at, and sorts by position', async () => {
    for (const [name, kind, position] of [
      ['Owner', 'user', 2],
      ['Runbook', 'text', 1],
      ['Pager', 'boolean', 3],
    ] as const) {
      expect((await create('functionalities', { name: `F ${name}`, kind, position })).status).toBe(201);
    }
    const list = (query: string) => h.call('GET', `/v1/functionalities/properties?${query}`);
    expect(names(await list('filter[kind]=boolean'))).toEqual(['F Pager']);
    expect(names(await list('filter[name]=f%20runbook'))).toEqual(['F Runbook']);
    expect(names(await list('filter[slug]=f-owner'))).toEqual(['F Owner']);
    const sorted = await list('sort=-position&filter[kind]=user');
    expect(names(sorted)).toEqual(['F Owner']);
    const byPosition = names(await list('sort=position&page[size]=100')).filter((n) => n.startsWith('F '));
    expect(byPosition).toEqual(['F Runbook', 'F Owner', 'F Pager']);
    const future = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect((await list(`filter[created_at][gte]=${future}`)).body.data).toEqual([]);
    expect((await list(`filter[created_at][lt]=${future}`)).body.meta.total_count).toBeGreaterThanOrEqual(3);
    expect((await list('sort=name')).status).toBe(400);
    expect((await list('filter[external_id]=x')).status).toBe(400);
  });

  it('keeps teams apart: another team answers 404 and does not see the property', async () => {
    const id = (await create('environments', { name: 'Secret team field', kind: 'text' })).body.data.id;
    const other = { team_id: 2 };
    expect((await h.call('GET', `/v1/catalog_properties/${id}`, { principal: other })).status).toBe(404);
    expect((await h.call('PUT', `/v1/catalog_properties/${id}`, { principal: other, body: body({ name: 'hijack' }) })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/catalog_properties/${id}`, { principal: other })).status).toBe(404);
    expect(
      (await h.call('GET', '/v1/environments/properties', { principal: other })).body.data.map((p: { id: string }) => p.id),
    ).not.toContain(id);
    expect((await h.call('GET', `/v1/catalog_properties/${randomUUID()}`)).status).toBe(404);
    expect((await h.call('GET', `/v1/catalog_properties/${id}`)).body.data.attributes.name).toBe('Secret team field');
  });

  it('holds at most 50 properties per catalog when 60 creates race', async () => {
    const team = { team_id: 3 };
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => create('services', { name: `Field ${i}`, kind: 'text' }, team)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s === 422)).toHaveLength(10);
    const refused = results.find((r) => r.status === 422)!;
    expect(refused.body.errors[0].detail).toBe('exceeds max fields per catalog');
    const [{ n }] = await h.db.knex('catalog_properties').where({ team_id: 3, catalog_type: 'service' }).count({ n: '*' });
    expect(Number(n)).toBe(50);
    // The limit is per catalog: another catalog of the same team still takes properties.
    expect((await create('environments', { name: 'Field 0', kind: 'text' }, team)).status).toBe(201);
  });
});
