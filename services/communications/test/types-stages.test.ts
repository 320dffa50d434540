import { startCommunications, type CallOptions, type CommunicationsHarness } from './support/communications-harness.js';

let h: CommunicationsHarness;
const call = (method: string, path: string, options?: CallOptions) => h.call(method, path, options);
const post = (kind: 'types' | 'stages', attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
  call('POST', `/v1/communications/${kind}`, { body: { data: { type: `communications_${kind}`, attributes } }, principal });

beforeAll(async () => {
  h = await startCommunications({ eventPattern: '#' });
});
afterAll(async () => h?.close());

describe('communications types', () => {
  it('creates, gets by id and slug, patches, lists with filters and deletes, each write announced', async () => {
    const created = await post('types', { name: 'Status Update', color: '#00FF00', description: 'For customers' });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(created.body.data.type).toBe('communications_types');
    expect(attributes).toMatchObject({
      name: 'Status Update',
      slug: 'status-update',
      color: '#00FF00',
      description: 'For customers',
      position: 1,
    });
    expect((await post('types', { name: 'Second', color: null })).body.data.attributes).toMatchObject({ position: 2, color: null });

    expect((await call('GET', `/v1/communications/types/${id}`)).body.data.id).toBe(id);
    expect((await call('GET', '/v1/communications/types/status-update')).body.data.id).toBe(id);

    const patched = await call('PATCH', `/v1/communications/types/${id}`, {
      body: { data: { id, type: 'communications_types', attributes: { slug: 'status', position: null } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes).toMatchObject({ slug: 'status', position: 3, name: 'Status Update' });
    expect(
      (await call('PUT', `/v1/communications/types/${id}`, { body: { data: { id, type: 'communications_types', attributes: {} } } }))
        .status,
    ).toBe(404);

    const filtered = await call('GET', '/v1/communications/types?filter[search]=status&sort=-name');
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.map((t: { id: string }) => t.id)).toEqual([id]);
    expect((await call('GET', '/v1/communications/types?filter[created_at][gte]=2000-01-01T00:00:00Z')).body.data).toHaveLength(2);
    expect((await call('GET', '/v1/communications/types?filter[slug]=status')).body.data).toHaveLength(1);

    const deleted = await call('DELETE', `/v1/communications/types/${id}`);
    expect(deleted.status).toBe(200);
    expect((await call('GET', `/v1/communications/types/${id}`)).status).toBe(404);

    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id).map((e) => e.routingKey);
    expect(mine).toEqual(['communications_type.created', 'communications_type.updated', 'communications_type.deleted']);
  });

  it('requires name and color, refuses unknown attributes and bad values with 422, duplicates with 409', async () => {
    const noColor = await post('types', { name: 'No colour' });
    expect(noColor.status).toBe(422);
    expect(noColor.body.errors[0].source.pointer).toBe('/data/attributes/color');
    expect((await post('types', { color: '#fff' })).status).toBe(422);
    const unknown = await post('types', { name: 'X', color: '#fff', slack_content: 'x' });
    expect(unknown.status).toBe(422);
    expect((await post('types', { name: 'X', color: 'green' })).status).toBe(422);
    expect((await post('types', { name: 'Dup', color: '#fff' })).status).toBe(201);
    const dup = await post('types', { name: 'dup', color: '#fff' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0].source.pointer).toBe('/data/attributes/name');
  });

  it("hides other teams' types (404) and needs all or ir.all for OAuth tokens", async () => {
    const { id } = (await post('types', { name: 'Mine', color: '#123456' })).body.data;
    expect((await call('GET', `/v1/communications/types/${id}`, { principal: { team_id: 2 } })).status).toBe(404);
    expect(
      (
        await call('PATCH', `/v1/communications/types/${id}`, {
          principal: { team_id: 2 },
          body: { data: { id, type: 'communications_types', attributes: { name: 'Theirs' } } },
        })
      ).status,
    ).toBe(404);
    expect((await call('DELETE', `/v1/communications/types/${id}`, { principal: { team_id: 2 } })).status).toBe(404);
    expect((await call('GET', '/v1/communications/types', { principal: { team_id: 2 } })).body.data).toEqual([]);
    expect((await call('GET', '/v1/communications/types', { principal: null })).status).toBe(401);
    const narrow = { scopes: ['ir.incidents:read'] };
    expect((await call('GET', '/v1/communications/types', { principal: narrow })).status).toBe(403);
    expect((await call('GET', '/v1/communications/types', { principal: { scopes: ['ir.all'] } })).status).toBe(200);
    expect((await call('GET', `/v1/communications/types/${id}`)).body.data.attributes.name).toBe('Mine');
  });
  it('holds a team to 500 types (422 limit_reached), other teams unaffected', async () => {
    const have = Number((await h.db.knex('communications_types').where({ team_id: 7 }).count({ n: '*' }))[0].n);
    const rows = Array.from({ length: 499 - have }, (_, i) => ({ team_id: 7, name: `Bulk ${i}`, slug: `bulk-${i}`, position: i }));
    await h.db.knex.batchInsert('communications_types', rows, 100);
    expect((await post('types', { name: 'Last one', color: null }, { team_id: 7 })).status).toBe(201);
    const over = await post('types', { name: 'One too many', color: null }, { team_id: 7 });
    expect([over.status, over.body.errors[0].code]).toEqual([422, 'limit_reached']);
    expect((await post('types', { name: 'One too many', color: null }, { team_id: 8 })).status).toBe(201);
  });
});

describe('communications stages', () => {
  it('creates (name required), patches, lists and deletes, each write announced', async () => {
    expect((await post('stages', { description: 'x' })).status).toBe(422);
    const created = await post('stages', { name: 'Investigating', description: 'We look', position: 5 });
    expect(created.status).toBe(201);
    const { id } = created.body.data;
    expect(created.body.data).toMatchObject({
      type: 'communications_stages',
      attributes: { name: 'Investigating', slug: 'investigating', description: 'We look', position: 5 },
    });
    const patched = await call('PATCH', `/v1/communications/stages/investigating`, {
      body: { data: { type: 'communications_stages', attributes: { name: 'Identified' } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes).toMatchObject({ name: 'Identified', slug: 'investigating', position: 5 });
    const unknown = await call('PATCH', `/v1/communications/stages/${id}`, {
      body: { data: { type: 'communications_stages', attributes: { color: '#fff' } } },
    });
    expect(unknown.status).toBe(422);
    expect((await call('GET', '/v1/communications/stages?filter[name]=identified')).body.data.map((s: { id: string }) => s.id)).toEqual([
      id,
    ]);
    expect((await call('DELETE', `/v1/communications/stages/${id}`)).status).toBe(200);
    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    expect(h.events!.events.filter((e) => (e.body.data as { id: string }).id === id).map((e) => e.routingKey)).toEqual([
      'communications_stage.created',
      'communications_stage.updated',
      'communications_stage.deleted',
    ]);
  });
});

describe('slugs', () => {
  it('refuses a slug, or a name whose slug would be one, that reads as a UUID: {id} could never find it', async () => {
    const uuid = '123e4567-e89b-42d3-a456-426614174000';
    const type = (await post('types', { name: 'Slugged', color: null })).body.data.id;
    const res = await call('PATCH', `/v1/communications/types/${type}`, {
      body: { data: { type: 'communications_types', attributes: { slug: uuid } } },
    });
    expect([res.status, res.body.errors[0].source.pointer]).toEqual([422, '/data/attributes/slug']);
    expect(
      (
        await call('PATCH', `/v1/communications/types/${type}`, {
          body: { data: { type: 'communications_types', attributes: { slug: `${uuid}-x` } } },
        })
      ).status,
    ).toBe(200);
    for (const kind of ['types', 'stages'] as const) {
      const named = await post(kind, kind === 'types' ? { name: uuid.toUpperCase(), color: null } : { name: uuid.toUpperCase() });
      expect([kind, named.status, named.body.errors?.[0].source.pointer]).toEqual([kind, 422, '/data/attributes/name']);
    }
    const template = await call('POST', '/v1/communications/templates', {
      body: { data: { type: 'communications_templates', attributes: { name: ` ${uuid} `, communication_type_id: type } } },
    });
    expect([template.status, template.body.errors[0].source.pointer]).toEqual([422, '/data/attributes/name']);
  });
});
