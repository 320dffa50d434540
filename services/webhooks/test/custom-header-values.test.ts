import { randomBytes } from 'node:crypto';
import { createPlainHeaderValuesStore } from '../src/data/plain-header-values.store.js';
import { sealPlainHeaderValues } from '../src/domain/endpoints/custom-header-values.js';
import { startWebhooks, endpoint, secretBox, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startWebhooks(false);
});
afterAll(async () => {
  await h?.close();
});

const URL = 'https://hooks.example.com/in';
const put = (id: string, attributes: Record<string, unknown>) =>
  h.call('PUT', `/v1/webhooks/endpoints/${id}`, { body: { data: { id, type: 'webhooks_endpoints', attributes } } });
const storedHeaders = async (id: string) => (await h.db.knex('webhooks_endpoints').where({ id }).first()).custom_headers;
const eventsOf = async (id: string) =>
  (await h.db.knex('outbox').orderBy('seq').select('type', 'payload')).filter((e) => e.payload.data?.id === id);

describe('custom header values', () => {
  it('are sealed at rest and masked in the create, read and update responses and in events; a PUT of the mask keeps the value', async () => {
    const token = `tok_${randomBytes(24).toString('hex')}`;
    const created = await h.call('POST', '/v1/webhooks/endpoints', {
      body: endpoint({
        name: 'Creds',
        url: URL,
        custom_headers: [
          { name: 'Authorization', value: `Bearer ${token}` },
          { name: 'X-Short', value: 'abc' },
        ],
      }),
    });
    expect(created.status).toBe(201);
    const { id } = created.body.data;
    const masked = [
      { name: 'Authorization', value: `****${token.slice(-4)}` },
      { name: 'X-Short', value: '****' },
    ];
    expect(created.body.data.attributes.custom_headers).toEqual(masked);
    expect((await h.call('GET', `/v1/webhooks/endpoints/${id}`)).body.data.attributes.custom_headers).toEqual(masked);
    expect(JSON.stringify((await h.call('GET', '/v1/webhooks/endpoints')).body)).not.toContain(token);

    const stored = await storedHeaders(id);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.map((s: any) => secretBox.open(s.sealed))).toEqual([`Bearer ${token}`, 'abc']);

    // What a client does after GET: send the read back with one change.
    const echoed = await put(id, { name: 'Creds 2', custom_headers: [...masked, { name: 'X-New', value: 'new-value' }] });
    expect(echoed.status).toBe(200);
    expect(echoed.body.data.attributes.custom_headers).toEqual([...masked, { name: 'X-New', value: '****' }]);
    const after = await storedHeaders(id);
    expect(after.slice(0, 2)).toEqual(stored);
    expect(secretBox.open(after[2].sealed)).toBe('new-value');

    // The name matches case-insensitively; a new value replaces the old one.
    const renamed = await put(id, {
      custom_headers: [
        { name: 'authorization', value: masked[0].value },
        { name: 'X-Short', value: 'xyz' },
      ],
    });
    expect(renamed.status).toBe(200);
    expect((await storedHeaders(id)).map((s: any) => [s.name, secretBox.open(s.sealed)])).toEqual([
      ['authorization', `Bearer ${token}`],
      ['X-Short', 'xyz'],
    ]);

    const deleted = await h.call('DELETE', `/v1/webhooks/endpoints/${id}`);
    expect(deleted.body.data.attributes.custom_headers[0].value).toBe(masked[0].value);
    const events = await eventsOf(id);
    expect(events.map((e) => e.type)).toEqual([
      'webhooks_endpoint.created',
      'webhooks_endpoint.updated',
      'webhooks_endpoint.updated',
      'webhooks_endpoint.deleted',
    ]);
    expect(JSON.stringify(events)).not.toContain(token);
    expect(JSON.stringify(events)).not.toContain('new-value');
  });

  it('refuses a masked value that is not the mask of the current value of that header', async () => {
    const created = await h.call('POST', '/v1/webhooks/endpoints', {
      body: endpoint({ name: 'Masks', url: URL, custom_headers: [{ name: 'X-Key', value: 'k'.repeat(20) }] }),
    });
    const { id } = created.body.data;
    const before = await storedHeaders(id);
    for (const custom_headers of [[{ name: 'X-Key', value: '****abcd' }], [{ name: 'X-Other', value: '****kkkk' }]]) {
      const res = await put(id, { custom_headers });
      expect({ status: res.status, pointer: res.body.errors?.[0]?.source?.pointer }).toEqual({
        status: 422,
        pointer: '/data/attributes/custom_headers/0/value',
      });
    }
    expect(await storedHeaders(id)).toEqual(before);
    const onCreate = await h.call('POST', '/v1/webhooks/endpoints', {
      body: endpoint({ name: 'Masked', url: URL, custom_headers: [{ name: 'X-Key', value: '****' }] }),
    });
    expect(onCreate.status).toBe(422);
  });

  it('masks plain values stored before encryption and seals them at start-up', async () => {
    const created = await h.call('POST', '/v1/webhooks/endpoints', { body: endpoint({ name: 'Legacy', url: URL }) });
    const { id } = created.body.data;
    const plain = [{ name: 'Authorization', value: 'Bearer legacy-token-1234' }];
    await h.db
      .knex('webhooks_endpoints')
      .where({ id })
      .update({ custom_headers: JSON.stringify(plain) });
    const read = await h.call('GET', `/v1/webhooks/endpoints/${id}`);
    expect(read.body.data.attributes.custom_headers).toEqual([{ name: 'Authorization', value: '****1234' }]);

    expect(await sealPlainHeaderValues(createPlainHeaderValuesStore(h.db.knex), secretBox)).toBe(1);
    const stored = await storedHeaders(id);
    expect(JSON.stringify(stored)).not.toContain('legacy-token');
    expect(secretBox.open(stored[0].sealed)).toBe('Bearer legacy-token-1234');
    expect((await h.call('GET', `/v1/webhooks/endpoints/${id}`)).body.data.attributes.custom_headers).toEqual([
      { name: 'Authorization', value: '****1234' },
    ]);
    expect(await sealPlainHeaderValues(createPlainHeaderValuesStore(h.db.knex), secretBox)).toBe(0);
  });
});
