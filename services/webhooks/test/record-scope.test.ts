import { randomUUID } from 'node:crypto';
import { startWebhooks, endpoint, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => { h = await startWebhooks(false); });
afterAll(async () => { await h?.close(); });

const URL = 'https://hooks.example.com/in';
const create = async (attributes: Record<string, unknown>) => (await h.call('POST', '/v1/webhooks/endpoints', { body: endpoint({ name: 'Scoped', url: URL, ...attributes }) })).body.data;
const put = (id: string, attributes: Record<string, unknown>, record_ids: string[]) =>
  h.call('PUT', `/v1/webhooks/endpoints/${id}`, { body: { data: { id, type: 'webhooks_endpoints', attributes } }, principal: { record_ids } });

async function insertDelivery(endpointId: string, subjectId: string) {
  const payload = JSON.stringify({ event: { id: randomUUID(), type: 'environment.created', occurred_at: new Date().toISOString() }, data: { id: subjectId, type: 'environments' } });
  const [row] = await h.db.knex('webhooks_deliveries')
    .insert({ team_id: 1, endpoint_id: endpointId, event_id: randomUUID(), event_type: 'environment.created', payload, status: 'delivered' })
    .returning('id');
  return row.id as string;
}

describe('record-scoped keys and webhooks (security review #11)', () => {
  it('may narrow an endpoint subscription but never widen it', async () => {
    const listed = await create({ event_types: ['environment.created', 'environment.updated'] });
    const scope = [listed.id];
    for (const event_types of [[], ['environment.created', 'incident.created']]) {
      const res = await put(listed.id, { event_types }, scope);
      expect({ event_types, status: res.status, code: res.body.errors?.[0]?.code }).toEqual({ event_types, status: 403, code: 'subscription_widening' });
    }
    expect((await h.db.knex('webhooks_endpoints').where({ id: listed.id }).first()).event_types).toEqual(['environment.created', 'environment.updated']);
    expect((await put(listed.id, { event_types: ['environment.updated', 'environment.created'], name: 'Same types' }, scope)).status).toBe(200);
    expect((await put(listed.id, { event_types: ['environment.created'] }, scope)).body.data.attributes.event_types).toEqual(['environment.created']);
    expect((await put(listed.id, { event_types: ['environment.created', 'environment.updated'] }, scope)).status).toBe(403);

    const all = await create({ event_types: [] });
    expect((await put(all.id, { event_types: ['incident.created'] }, [all.id])).status).toBe(200);
    expect((await put(all.id, { event_types: [] }, [all.id])).status).toBe(403);
    // An unrestricted key may widen.
    expect((await h.call('PUT', `/v1/webhooks/endpoints/${all.id}`, { body: { data: { type: 'webhooks_endpoints', attributes: { event_types: [] } } } })).status).toBe(200);
  });

  it('shows a record-scoped key only the deliveries of events about its records', async () => {
    const ep = await create({ event_types: [] });
    const [mine, other] = [randomUUID(), randomUUID()];
    const visible = await insertDelivery(ep.id, mine);
    const hidden = await insertDelivery(ep.id, other);
    const principal = { record_ids: [ep.id, mine] };

    const list = await h.call('GET', `/v1/webhooks/endpoints/${ep.id}/deliveries?include=attempts`, { principal });
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: any) => d.id)).toEqual([visible]);
    expect(list.body.meta.total_count).toBe(1);
    expect((await h.call('GET', `/v1/webhooks/deliveries/${visible}`, { principal })).status).toBe(200);
    for (const [method, path] of [['GET', `/v1/webhooks/deliveries/${hidden}`], ['GET', `/v1/webhooks/deliveries/${hidden}/attempts`], ['POST', `/v1/webhooks/deliveries/${hidden}/deliver`]]) {
      expect([method, path, (await h.call(method, path, { principal })).status]).toEqual([method, path, 404]);
    }
    expect((await h.db.knex('webhooks_deliveries').where({ id: hidden }).first()).next_trigger).toBe('scheduled');
    const unrestricted = await h.call('GET', `/v1/webhooks/endpoints/${ep.id}/deliveries`);
    expect(new Set(unrestricted.body.data.map((d: any) => d.id))).toEqual(new Set([visible, hidden]));
  });
});
