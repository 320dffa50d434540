import { randomUUID } from 'node:crypto';
import { startWebhooks, endpoint, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startWebhooks(false, { maxEndpointsPerTeam: 3 });
});
afterAll(async () => {
  await h?.close();
});

const URL = 'https://hooks.example.com/in';
const create = (name: string, team_id = 1) =>
  h.call('POST', '/v1/webhooks/endpoints', { body: endpoint({ name, url: URL }), principal: { team_id } });

describe('webhook limits', () => {
  it('refuses the endpoint past the per-team cap with 422, per team', async () => {
    for (const n of [1, 2, 3]) expect((await create(`ep ${n}`)).status).toBe(201);
    const over = await create('ep 4');
    expect(over.status).toBe(422);
    expect(over.body.errors[0]).toMatchObject({ code: 'limit_reached', source: { pointer: '/data' } });
    expect(over.body.errors[0].detail).toMatch(/already has 3 webhook endpoints/);
    expect((await create('other team', 2)).status).toBe(201);
    const first = (await h.call('GET', '/v1/webhooks/endpoints')).body.data[0].id;
    expect((await h.call('DELETE', `/v1/webhooks/endpoints/${first}`)).status).toBe(200);
    expect((await create('ep 4 again')).status).toBe(201);
  });

  it('holds the cap under concurrent creates', async () => {
    const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => create(`race ${i}`, 7).then((r) => r.status)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 422)).toHaveLength(9);
    expect(Number((await h.db.knex('webhooks_endpoints').where({ team_id: 7 }).count({ n: '*' }))[0].n)).toBe(3);
  });

  it('includes at most the latest 20 attempts of a delivery; /attempts pages through all', async () => {
    const ep = (await create('attempts', 9)).body.data;
    const [delivery] = await h.db
      .knex('webhooks_deliveries')
      .insert({
        team_id: 9,
        endpoint_id: ep.id,
        event_id: randomUUID(),
        event_type: 'environment.created',
        payload: '{"event":{},"data":null}',
        status: 'failed',
      })
      .returning('id');
    await h.db.knex('webhooks_delivery_attempts').insert(
      Array.from({ length: 25 }, (_, i) => ({
        delivery_id: delivery.id,
        attempt_number: i + 1,
        trigger: 'scheduled',
        url: URL,
        status_code: 500,
        duration_ms: 1,
      })),
    );
    const latest = Array.from({ length: 20 }, (_, i) => i + 6);
    const one = await h.call('GET', `/v1/webhooks/deliveries/${delivery.id}?include=attempts`, { principal: { team_id: 9 } });
    expect(one.body.included.map((a: any) => a.attributes.attempt_number)).toEqual(latest);
    const list = await h.call('GET', `/v1/webhooks/endpoints/${ep.id}/deliveries?include=attempts`, { principal: { team_id: 9 } });
    expect(list.body.included.map((a: any) => a.attributes.attempt_number)).toEqual(latest);
    const all = await h.call('GET', `/v1/webhooks/deliveries/${delivery.id}/attempts?page[size]=100`, { principal: { team_id: 9 } });
    expect(all.body.meta.total_count).toBe(25);
    expect(all.body.data).toHaveLength(25);
  });
});
