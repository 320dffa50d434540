import { randomUUID } from 'node:crypto';
import { startWebhooks, endpoint, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startWebhooks(false);
});
afterAll(async () => {
  await h?.close();
});

const URL = 'https://hooks.example.com/services/T000/B000/XXXXSECRETXXXX';
const MASKED = 'https://hooks.example.com/****';
const admin = {};

async function seed() {
  const created = await h.call('POST', '/v1/webhooks/endpoints', {
    body: endpoint({ name: `Admin ${randomUUID()}`, url: URL, event_types: ['incident.created'] }),
  });
  expect(created.status).toBe(201);
  const ep = created.body.data;
  const payload = JSON.stringify({
    event: { id: randomUUID(), type: 'incident.created', occurred_at: new Date().toISOString() },
    data: { id: randomUUID(), type: 'incidents', attributes: { title: 'Private', private: true } },
  });
  const [delivery] = await h.db
    .knex('webhooks_deliveries')
    .insert({ team_id: 1, endpoint_id: ep.id, event_id: randomUUID(), event_type: 'incident.created', payload, status: 'failed' })
    .returning('id');
  return { ep, delivery: delivery.id as string };
}

/** Every webhook operation, against an endpoint and a delivery of the team. */
function operations(ep: string, delivery: string): [string, string, unknown?][] {
  const put = { data: { id: ep, type: 'webhooks_endpoints', attributes: { event_types: [] } } };
  return [
    ['GET', '/v1/webhooks/endpoints'],
    [
      'POST',
      '/v1/webhooks/endpoints',
      endpoint({ name: 'Mine', url: 'https://receiver.example.com/in', event_types: ['api_key.created', 'incident.created'] }),
    ],
    ['GET', `/v1/webhooks/endpoints/${ep}`],
    ['PUT', `/v1/webhooks/endpoints/${ep}`, put],
    ['PATCH', `/v1/webhooks/endpoints/${ep}`, put],
    ['GET', `/v1/webhooks/endpoints/${ep}/deliveries`],
    ['GET', `/v1/webhooks/deliveries/${delivery}`],
    ['GET', `/v1/webhooks/deliveries/${delivery}/attempts`],
    ['POST', `/v1/webhooks/deliveries/${delivery}/deliver`],
    ['DELETE', `/v1/webhooks/endpoints/${ep}`],
  ];
}

describe('webhooks are for unrestricted admins only (security issue 19, finding 1)', () => {
  const refused: [string, (ids: { ep: string; delivery: string }) => Record<string, unknown>][] = [
    ['a team-wide user key', () => ({ role: 'user', user_id: null })],
    ['an observer key', () => ({ role: 'observer', on_call_role: 'observer', user_id: null, capabilities: ['read'] })],
    [
      'a personal key of a non-admin',
      () => ({ role: 'user', on_call_role: 'user', user_id: 7, credential: { type: 'api_key', id: 'k', kind: 'personal' } }),
    ],
    ['an on-call admin who is no incident admin', () => ({ role: 'user', on_call_role: 'admin' })],
    ['an admin group key', () => ({ group_ids: [randomUUID()], credential: { type: 'api_key', id: 'k', kind: 'group' } })],
    // Listing the very endpoint and delivery does not help: 403 whatever the id, never 404 or 200.
    [
      'an admin record-scoped key listing the records',
      ({ ep, delivery }) => ({ record_ids: [ep, delivery], credential: { type: 'api_key', id: 'k', kind: 'record' } }),
    ],
    ['an admin OAuth token with ir.all', () => ({ scopes: ['ir.all'], credential: { type: 'oauth', client_id: 'c' } })],
    [
      'an admin OAuth token with ir.all and oc.all',
      () => ({ scopes: ['ir.all', 'oc.all'], credential: { type: 'oauth', client_id: 'c' } }),
    ],
  ];

  it.each(refused)('refuses %s on every operation and changes nothing', async (_who, principalOf) => {
    const { ep, delivery } = await seed();
    const principal = principalOf({ ep: ep.id, delivery });
    const before = await h.db.knex('webhooks_endpoints').count({ n: '*' }).first();
    for (const [method, path, body] of [
      ...operations(ep.id, delivery),
      ['GET', `/v1/webhooks/deliveries/${randomUUID()}`] as [string, string],
    ]) {
      const res = await h.call(method, path, { body, principal });
      expect([method, path, res.status, res.body?.errors?.[0]?.status]).toEqual([method, path, 403, '403']);
    }
    expect(await h.db.knex('webhooks_endpoints').count({ n: '*' }).first()).toEqual(before);
    expect((await h.db.knex('webhooks_endpoints').where({ id: ep.id }).first()).event_types).toEqual(['incident.created']);
    expect((await h.db.knex('webhooks_deliveries').where({ id: delivery }).first()).status).toBe('failed');
  });

  it('lets an unrestricted admin (API key or OAuth token with all) do every operation', async () => {
    for (const principal of [admin, { scopes: ['all'], credential: { type: 'oauth', client_id: 'c' } }]) {
      const { ep, delivery } = await seed();
      const statuses = [];
      for (const [method, path, body] of operations(ep.id, delivery))
        statuses.push([method, path, (await h.call(method, path, { body, principal })).status]);
      expect(statuses).toEqual(
        operations(ep.id, delivery).map(([method, path]) => [method, path, method === 'POST' && path.endsWith('endpoints') ? 201 : 200]),
      );
    }
  });

  it('still answers 404 to an admin for an unknown or foreign id', async () => {
    const { ep, delivery } = await seed();
    expect((await h.call('GET', `/v1/webhooks/endpoints/${randomUUID()}`)).status).toBe(404);
    expect((await h.call('GET', `/v1/webhooks/deliveries/${randomUUID()}`)).status).toBe(404);
    expect((await h.call('GET', `/v1/webhooks/endpoints/${ep.id}`, { principal: { team_id: 2 } })).status).toBe(404);
    expect((await h.call('GET', `/v1/webhooks/deliveries/${delivery}/attempts`, { principal: { team_id: 2 } })).status).toBe(404);
  });

  it('shows admins the whole url and masks it past the host in webhooks_endpoint events', async () => {
    const { ep } = await seed();
    expect(ep.attributes.url).toBe(URL);
    expect((await h.call('GET', `/v1/webhooks/endpoints/${ep.id}`)).body.data.attributes.url).toBe(URL);
    expect(
      (
        await h.call('PATCH', `/v1/webhooks/endpoints/${ep.id}`, {
          body: { data: { type: 'webhooks_endpoints', attributes: { name: 'Renamed' } } },
        })
      ).body.data.attributes.url,
    ).toBe(URL);
    expect((await h.call('DELETE', `/v1/webhooks/endpoints/${ep.id}`)).body.data.attributes.url).toBe(URL);

    const events = await h.db.knex('outbox').whereRaw(`payload #>> '{data,id}' = ?`, [ep.id]).orderBy('seq').select('type', 'payload');
    expect(events.map((e) => [e.type, e.payload.data.attributes.url])).toEqual([
      ['webhooks_endpoint.created', MASKED],
      ['webhooks_endpoint.updated', MASKED],
      ['webhooks_endpoint.deleted', MASKED],
    ]);
    expect(JSON.stringify(events)).not.toContain('XXXXSECRETXXXX');
  });

  it('keeps the event catalog readable by every role: it names types and carries no record', async () => {
    for (const principal of [{ role: 'observer', capabilities: ['read'] }, { record_ids: [randomUUID()] }, { scopes: ['ir.all'] }]) {
      expect((await h.call('GET', '/v1/webhooks/event_types', { principal })).status).toBe(200);
    }
    expect((await h.call('GET', '/v1/webhooks/event_types', { principal: { scopes: ['ir.environments:read'] } })).status).toBe(403);
  });
});
