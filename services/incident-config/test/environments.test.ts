import { randomUUID } from 'node:crypto';
import { createPrincipalSigner, generatePrincipalKeys, PRINCIPAL_HEADER } from '@firewatch/auth';
import { signAsGateway, testPrincipal } from '@firewatch/testing';
import { MEDIA, startIncidentConfig, type CallOptions, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;
const call = (method: string, path: string, options?: CallOptions) => h.call(method, path, options);

const create = (attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
  call('POST', '/v1/environments', { body: { data: { type: 'environments', attributes } }, principal });

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'environment.*' });
});

afterAll(async () => h?.close());

describe('environments', () => {
  it('creates, gets by id and slug, updates, lists and deletes', async () => {
    const created = await create({ name: 'Production EU', color: '#FF0000', notify_emails: ['ops@example.com'], position: 1 });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toContain(MEDIA);
    const { id, attributes } = created.body.data;
    expect(created.body.data.type).toBe('environments');
    expect(attributes).toMatchObject({
      name: 'Production EU',
      slug: 'production-eu',
      color: '#FF0000',
      position: 1,
      notify_emails: ['ops@example.com'],
      chat_channels: [],
      chat_aliases: [],
      properties: [],
      description: null,
      external_id: null,
    });
    expect(new Date(attributes.created_at).toISOString()).toBe(attributes.created_at);

    expect((await call('GET', `/v1/environments/${id}`)).body.data.id).toBe(id);
    expect((await call('GET', '/v1/environments/production-eu')).body.data.id).toBe(id);

    const property = await call('POST', '/v1/environments/properties', {
      body: { data: { type: 'catalog_properties', attributes: { name: 'Region', kind: 'text' } } },
    });
    const catalog_property_id = property.body.data.id;
    const updated = await call('PUT', `/v1/environments/${id}`, {
      body: { data: { id, type: 'environments', attributes: { description: 'Main', properties: [{ catalog_property_id, value: 'x' }] } } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ name: 'Production EU', description: 'Main' });
    expect(updated.body.data.attributes.properties).toEqual([{ catalog_property_id, value: 'x' }]);

    const list = await call('GET', '/v1/environments');
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(id);
    expect(list.body.meta).toMatchObject({ current_page: 1, total_count: list.body.data.length });
    expect(list.body.links.first).toContain('page[number]=1');

    const deleted = await call('DELETE', `/v1/environments/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type: 'environments', attributes: { name: 'Production EU' } });
    expect((await call('GET', `/v1/environments/${id}`)).status).toBe(404);

    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    expect(mine.map((e) => e.routingKey)).toEqual(['environment.created', 'environment.updated', 'environment.deleted']);
    expect(mine[0].body).toMatchObject({ type: 'environment.created', team_id: 1, data: { id, type: 'environments' } });
  });

  it('generates unique slugs and refuses duplicate names with 409', async () => {
    const a = await create({ name: 'Staging' });
    const dup = await create({ name: 'staging' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0].source).toEqual({ pointer: '/data/attributes/name' });
    const b = await create({ name: 'Staging!' });
    expect(a.body.data.attributes.slug).toBe('staging');
    expect(b.body.data.attributes.slug).toBe('staging-2');
    const taken = await create({ name: 'Other', slug: 'staging' });
    expect(taken.status).toBe(409);
  });

  it('filters, sorts and paginates', async () => {
    for (const name of ['Alpha', 'Bravo', 'Charlie']) await create({ name, color: name === 'Bravo' ? '#00FF00' : '#0000FF' });
    const filtered = await call('GET', '/v1/environments?filter[color]=%2300FF00');
    expect(filtered.body.data.map((e: { attributes: { name: string } }) => e.attributes.name)).toEqual(['Bravo']);
    const sorted = await call('GET', '/v1/environments?sort=-name&filter[name][in]=Alpha,Charlie');
    expect(sorted.body.data.map((e: { attributes: { name: string } }) => e.attributes.name)).toEqual(['Charlie', 'Alpha']);
    const search = await call('GET', '/v1/environments?filter[search]=rav');
    expect(search.body.data).toHaveLength(1);
    const page = await call('GET', '/v1/environments?sort=name&page[size]=2&page[number]=2&filter[name][in]=Alpha,Bravo,Charlie');
    expect(page.body.data.map((e: { attributes: { name: string } }) => e.attributes.name)).toEqual(['Charlie']);
    expect(page.body.meta).toEqual({ current_page: 2, next_page: null, prev_page: 1, total_count: 3, total_pages: 2 });
    const since = await call(
      'GET',
      `/v1/environments?filter[created_at][gte]=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(since.body.data).toEqual([]);
  });

  it.each([
    ['unknown attribute', { data: { type: 'environments', attributes: { name: 'x', colour: 'red' } } }, 422, '/data/attributes/colour'],
    ['missing name', { data: { type: 'environments', attributes: {} } }, 422, '/data/attributes/name'],
    ['bad colour', { data: { type: 'environments', attributes: { name: 'x', color: 'red' } } }, 422, '/data/attributes/color'],
    [
      'bad email',
      { data: { type: 'environments', attributes: { name: 'x', notify_emails: ['nope'] } } },
      422,
      '/data/attributes/notify_emails/0',
    ],
    [
      'bad property',
      { data: { type: 'environments', attributes: { name: 'x', properties: [{ catalog_property_id: 'x', value: 'v' }] } } },
      422,
      '/data/attributes/properties/0/catalog_property_id',
    ],
    ['wrong type', { data: { type: 'services', attributes: { name: 'x' } } }, 409, '/data/type'],
  ])('refuses %s', async (_name, body, status, pointer) => {
    const before = await h.db.knex('environments').count({ n: '*' });
    const res = await call('POST', '/v1/environments', { body });
    expect(res.status).toBe(status);
    expect(res.body.errors[0].source.pointer).toBe(pointer);
    expect(await h.db.knex('environments').count({ n: '*' })).toEqual(before);
  });

  it('answers malformed JSON, media types, bad queries and unknown includes with their 4xx', async () => {
    expect((await call('POST', '/v1/environments', { body: '{"data":' })).status).toBe(400);
    expect(
      (
        await call('POST', '/v1/environments', {
          body: { data: { type: 'environments', attributes: { name: 'x' } } },
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(415);
    expect((await call('GET', '/v1/environments', { headers: { accept: 'text/html' } })).status).toBe(406);
    expect((await call('GET', '/v1/environments?page[size]=1000')).status).toBe(400);
    expect((await call('GET', '/v1/environments?page[number]=0')).status).toBe(400);
    expect((await call('GET', '/v1/environments?include=owner')).status).toBe(400);
    expect((await call('GET', '/v1/environments?filter[nope]=1')).status).toBe(400);
    expect((await call('GET', '/v1/environments?sort=nope')).status).toBe(400);
    expect((await call('GET', '/v1/environments?foo=1')).status).toBe(400);
  });

  it('keeps teams apart: another team answers 404 and changes nothing', async () => {
    const mine = await create({ name: 'Team one only' });
    const id = mine.body.data.id;
    const other = { team_id: 2 };
    expect((await call('GET', `/v1/environments/${id}`, { principal: other })).status).toBe(404);
    expect(
      (
        await call('PUT', `/v1/environments/${id}`, {
          principal: other,
          body: { data: { type: 'environments', attributes: { name: 'hijack' } } },
        })
      ).status,
    ).toBe(404);
    expect((await call('DELETE', `/v1/environments/${id}`, { principal: other })).status).toBe(404);
    const list = await call('GET', '/v1/environments', { principal: other });
    expect(list.body.data.map((e: { id: string }) => e.id)).not.toContain(id);
    expect((await call('GET', `/v1/environments/${id}`)).body.data.attributes.name).toBe('Team one only');
  });

  it('enforces capabilities, roles, scopes and record lists', async () => {
    const target = (await create({ name: 'Guarded' })).body.data.id;
    expect((await create({ name: 'x1' }, { capabilities: ['read'] })).status).toBe(403);
    expect((await create({ name: 'x2' }, { role: 'observer' })).status).toBe(403);
    expect((await create({ name: 'x3' }, { scopes: ['ir.environments:read'] })).status).toBe(403);
    expect((await call('GET', '/v1/environments', { principal: { scopes: ['ir.environments:read'] } })).status).toBe(200);
    expect((await call('GET', '/v1/environments', { principal: { scopes: ['oc.alerts:read'] } })).status).toBe(403);
    const scoped = { record_ids: [target] };
    const list = await call('GET', '/v1/environments', { principal: scoped });
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([target]);
    const other = (await create({ name: 'Unlisted' })).body.data.id;
    expect((await call('GET', `/v1/environments/${other}`, { principal: scoped })).status).toBe(404);
  });

  it('refuses requests that did not come through the gateway', async () => {
    const res = await call('GET', '/v1/environments', { principal: null });
    expect(res.status).toBe(401);
    const { privateKey } = await generatePrincipalKeys();
    const target = { audience: 'incident-config', method: 'GET', path: '/v1/environments' };
    const forged = await createPrincipalSigner({ privateKey }).sign(testPrincipal() as never, target);
    expect((await call('GET', '/v1/environments', { principal: null, headers: { [PRINCIPAL_HEADER]: forged } })).status).toBe(401);
    // A genuine token is good for one service and one request only.
    const forWebhooks = await signAsGateway(testPrincipal(), 'webhooks', 'GET', '/v1/environments');
    expect((await call('GET', '/v1/environments', { principal: null, headers: { [PRINCIPAL_HEADER]: forWebhooks } })).status).toBe(401);
    const forGet = await signAsGateway(testPrincipal(), 'incident-config', 'GET', '/v1/environments/x');
    expect((await call('DELETE', '/v1/environments/y', { principal: null, headers: { [PRINCIPAL_HEADER]: forGet } })).status).toBe(401);
    expect((await call('GET', '/v1/environments/x', { principal: null, headers: { [PRINCIPAL_HEADER]: forGet } })).status).toBe(404);
  });

  it('answers 201 with Location, and 404 for an unknown id before judging the body', async () => {
    const created = await create({ name: 'Located' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/environments/${created.body.data.id}`);
    const bad = { data: { type: 'environments', attributes: { colour: 'no such attribute' } } };
    expect((await call('PUT', `/v1/environments/${randomUUID()}`, { body: bad })).status).toBe(404);
    expect((await call('PUT', `/v1/environments/${created.body.data.id}`, { body: bad })).status).toBe(422);
  });

  it('answers 409 when data.id names another record', async () => {
    const id = (await create({ name: 'Mismatch' })).body.data.id;
    const res = await call('PATCH', `/v1/environments/${id}`, {
      body: { data: { id: randomUUID(), type: 'environments', attributes: { name: 'y' } } },
    });
    expect(res.status).toBe(409);
  });
});
