import { startWebhooks, endpoint, secretBox, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startWebhooks(false);
});
afterAll(async () => {
  await h?.close();
});

const URL = 'https://hooks.example.com/in';

describe('webhooks endpoints', () => {
  it('creates with a generated whsec_ secret shown once, stored encrypted and masked afterwards', async () => {
    const created = await h.call('POST', '/v1/webhooks/endpoints', {
      body: endpoint({ name: 'Ops hook', url: URL, event_types: ['environment.created'] }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { id, attributes } = created.body.data;
    expect(attributes).toMatchObject({
      name: 'Ops hook',
      slug: 'ops-hook',
      url: URL,
      event_types: ['environment.created'],
      enabled: true,
      custom_headers: [],
    });
    expect(attributes.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const row = await h.db.knex('webhooks_endpoints').where({ id }).first();
    expect(row.secret_ciphertext).not.toContain(attributes.secret.slice(6));
    expect(secretBox.open(row.secret_ciphertext)).toBe(attributes.secret);
    const read = await h.call('GET', `/v1/webhooks/endpoints/${id}`);
    expect(read.body.data.attributes.secret).toBe(`whsec_****${attributes.secret.slice(-4)}`);
    expect(read.headers.get('cache-control')).toBeNull();
    const bySlug = await h.call('GET', '/v1/webhooks/endpoints/ops-hook');
    expect(bySlug.body.data.id).toBe(id);
    const events = await h.db.knex('outbox').select('type', 'payload').orderBy('seq');
    expect(events.map((e) => e.type)).toEqual(['webhooks_endpoint.created']);
    expect(JSON.stringify(events[0].payload)).not.toContain(attributes.secret);
  });

  it('keeps a supplied secret and refuses malformed ones', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const ok = await h.call('POST', '/v1/webhooks/endpoints', { body: endpoint({ name: 'Own secret', url: URL, secret }) });
    expect(ok.status).toBe(201);
    expect(ok.body.data.attributes.secret).toBe(secret);
    const bad = await h.call('POST', '/v1/webhooks/endpoints', { body: endpoint({ name: 'Bad secret', url: URL, secret: 'hunter2' }) });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/secret');
  });

  it('validates url, event types and custom headers with pointers', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'a' }, '/data/attributes/url'],
      [{ url: URL }, '/data/attributes/name'],
      [{ name: 'a', url: 'http://hooks.example.com/' }, '/data/attributes/url'],
      [{ name: 'a', url: 'https://user:pw@hooks.example.com/' }, '/data/attributes/url'],
      [{ name: 'a', url: URL, event_types: ['environment.created', 'nope.created'] }, '/data/attributes/event_types/1'],
      [{ name: 'a', url: URL, custom_headers: [{ name: 'Content-Type', value: 'x' }] }, '/data/attributes/custom_headers/0/name'],
      [{ name: 'a', url: URL, custom_headers: [{ name: 'Webhook-Signature', value: 'x' }] }, '/data/attributes/custom_headers/0/name'],
      [{ name: 'a', url: URL, custom_headers: [{ name: 'X-Ok', value: 'a\r\nb' }] }, '/data/attributes/custom_headers/0/value'],
      [
        { name: 'a', url: URL, custom_headers: Array.from({ length: 11 }, (_, i) => ({ name: `X-H${i}`, value: 'v' })) },
        '/data/attributes/custom_headers',
      ],
      [
        {
          name: 'a',
          url: URL,
          custom_headers: [
            { name: 'X-A', value: '1' },
            { name: 'x-a', value: '2' },
          ],
        },
        '/data/attributes/custom_headers',
      ],
      [{ name: 'a', url: URL, enabled: 'yes' }, '/data/attributes/enabled'],
    ];
    for (const [attrs, pointer] of cases) {
      const res = await h.call('POST', '/v1/webhooks/endpoints', { body: endpoint(attrs) });
      expect({ attrs, status: res.status, pointer: res.body.errors?.[0]?.source?.pointer }).toEqual({ attrs, status: 422, pointer });
    }
  });

  it('updates slug, name, event_types, enabled and custom_headers by PUT, refuses url, lists with filters, deletes', async () => {
    const created = await h.call('POST', '/v1/webhooks/endpoints', { body: endpoint({ name: 'Pager', url: URL }) });
    const id = created.body.data.id;
    const put = await h.call('PUT', `/v1/webhooks/endpoints/${id}`, {
      body: {
        data: {
          id,
          type: 'webhooks_endpoints',
          attributes: {
            slug: 'pager-2',
            name: 'Pager two',
            event_types: ['incident.created'],
            enabled: false,
            custom_headers: [{ name: 'Authorization', value: 'Bearer x' }],
          },
        },
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.attributes).toMatchObject({
      slug: 'pager-2',
      name: 'Pager two',
      event_types: ['incident.created'],
      enabled: false,
      custom_headers: [{ name: 'Authorization', value: '****' }],
    });
    expect(put.body.data.attributes.secret).toMatch(/^whsec_\*{4}/);
    const url = await h.call('PUT', `/v1/webhooks/endpoints/${id}`, {
      body: { data: { type: 'webhooks_endpoints', attributes: { url: 'https://other.example.com' } } },
    });
    expect(url.status).toBe(422);
    const bySlug = await h.call('GET', '/v1/webhooks/endpoints?filter[slug]=pager-2');
    expect(bySlug.body.data.map((e: any) => e.id)).toEqual([id]);
    const byName = await h.call('GET', '/v1/webhooks/endpoints?filter[name]=pager%20two');
    expect(byName.body.data.map((e: any) => e.id)).toEqual([id]);
    const deleted = await h.call('DELETE', `/v1/webhooks/endpoints/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type: 'webhooks_endpoints' });
    expect((await h.call('GET', `/v1/webhooks/endpoints/${id}`)).status).toBe(404);
  });

  it("hides another team's endpoints and needs the all scope for OAuth tokens", async () => {
    const created = await h.call('POST', '/v1/webhooks/endpoints', { body: endpoint({ name: 'Mine', url: URL }) });
    expect((await h.call('GET', `/v1/webhooks/endpoints/${created.body.data.id}`, { principal: { team_id: 2 } })).status).toBe(404);
    for (const scopes of [['ir.environments:write'], ['ir.all']]) {
      const scoped = await h.call('GET', '/v1/webhooks/endpoints', { principal: { scopes } });
      expect([scopes, scoped.status, scoped.body.errors?.[0]?.code]).toEqual([scopes, 403, 'insufficient_scope']);
    }
    expect((await h.call('GET', '/v1/webhooks/endpoints', { principal: { scopes: ['all'] } })).status).toBe(200);
  });

  it('serves the event catalog', async () => {
    const res = await h.call('GET', '/v1/webhooks/event_types');
    expect(res.status).toBe(200);
    const names = res.body.data.map((t: any) => t.id);
    expect(names).toEqual(expect.arrayContaining(['incident.created', 'environment.created', 'webhooks_endpoint.deleted']));
    expect(res.body.meta.total_count).toBe(names.length);
    expect((await h.call('GET', '/v1/webhooks/event_types?page[size]=5')).status).toBe(400);
  });
});
