import { signPayload } from '@firewatch/webhooks/shared';
import type { Knex } from 'knex';
import type { TestDatabase } from '@firewatch/testing';
import {
  createWebhooksDb,
  envelope,
  insertEndpoint,
  publisher,
  randomTeam,
  startDispatcher,
  startReceiver,
  uniqueQueue,
  waitUntil,
} from './support.js';

let db: TestDatabase;
let knex: Knex;
const queue = uniqueQueue();
let pub: Awaited<ReturnType<typeof publisher>>;
let dispatcher: ReturnType<typeof startDispatcher>;

beforeAll(async () => {
  db = await createWebhooksDb();
  knex = db.knex as Knex;
  dispatcher = startDispatcher(knex, queue);
  await dispatcher.start();
  pub = await publisher(queue);
});

afterAll(async () => {
  await dispatcher?.stop();
  await pub?.close();
  await db?.drop();
});

describe('webhook dispatcher', () => {
  it("delivers a signed body with custom headers to the matching endpoints of the event's team only", async () => {
    const team = randomTeam();
    const rx = await startReceiver();
    const other = await startReceiver();
    const ep = await insertEndpoint(knex, {
      team_id: team,
      url: `${rx.url}/in`,
      event_types: ['environment.created'],
      custom_headers: [{ name: 'Authorization', value: 'Bearer abc' }],
    });
    // Still in the plain form of rows written before header values were sealed.
    await insertEndpoint(knex, {
      team_id: team,
      url: `${other.url}/legacy`,
      event_types: ['environment.updated'],
      custom_headers: [{ name: 'X-Legacy', value: 'plain' }],
      plainHeaders: true,
    });
    await insertEndpoint(knex, { team_id: team, url: `${other.url}/in`, event_types: ['incident.created'] });
    await insertEndpoint(knex, { team_id: team + 1, url: `${other.url}/in`, event_types: [] });
    const event = envelope(team);
    await pub.send([event, envelope(team, 'environment.updated')]);
    await waitUntil(() => rx.received.length === 1 && other.received.length === 1, 10_000, 'delivery');
    await new Promise((r) => setTimeout(r, 300));
    expect(rx.received).toHaveLength(1);
    expect(other.received.map((r) => [JSON.parse(r.body).event.type, r.headers['x-legacy']])).toEqual([['environment.updated', 'plain']]);
    const [got] = rx.received;
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers.authorization).toBe('Bearer abc');
    expect(JSON.parse(got.body)).toEqual({ event: { id: event.id, type: event.type, occurred_at: event.occurred_at }, data: event.data });
    const ts = Number(got.headers['webhook-timestamp']);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(30);
    expect(got.headers['webhook-signature']).toBe(signPayload(ep.secret, String(got.headers['webhook-id']), ts, got.body));
    await waitUntil(
      async () => (await knex('webhooks_deliveries').where({ endpoint_id: ep.id }).first())?.status === 'delivered',
      5000,
      'recorded',
    );
    const delivery = await knex('webhooks_deliveries').where({ endpoint_id: ep.id }).first();
    expect(got.headers['webhook-id']).toBe(delivery.id);
    expect(delivery.payload).toBe(got.body);
    expect(delivery.delivered_at).toBeInstanceOf(Date);
    const attempts = await knex('webhooks_delivery_attempts').where({ delivery_id: delivery.id });
    expect(attempts).toMatchObject([{ attempt_number: 1, status_code: 200, trigger: 'scheduled', error: null }]);
    await rx.close();
    await other.close();
  });

  it("records a receiver's answer whose body holds a NUL byte (which PostgreSQL's text refuses), sent once", async () => {
    const team = randomTeam();
    const rx = await startReceiver(() => ({ status: 200, body: 'ok\u0000then' }));
    const ep = await insertEndpoint(knex, { team_id: team, url: rx.url });
    await pub.send([envelope(team)]);
    await waitUntil(
      async () => (await knex('webhooks_deliveries').where({ endpoint_id: ep.id }).first())?.delivered_at instanceof Date,
      10_000,
      'delivered',
    );
    const delivery = await knex('webhooks_deliveries').where({ endpoint_id: ep.id }).first();
    expect(await knex('webhooks_delivery_attempts').where({ delivery_id: delivery.id })).toMatchObject([
      { status_code: 200, response_body: 'ok\uFFFDthen' },
    ]);
    expect(rx.received).toHaveLength(1);
    await rx.close();
  });

  it('retries after a 500 with the same webhook-id and records both attempts', async () => {
    const team = randomTeam();
    const rx = await startReceiver((_r, n) => ({ status: n === 1 ? 500 : 200, body: n === 1 ? 'boom' : 'ok' }));
    const ep = await insertEndpoint(knex, { team_id: team, url: rx.url });
    await pub.send([envelope(team)]);
    await waitUntil(() => rx.received.length === 2, 10_000, 'retry');
    expect(rx.received[1].headers['webhook-id']).toBe(rx.received[0].headers['webhook-id']);
    expect(rx.received[1].body).toBe(rx.received[0].body);
    expect(rx.received[1].at - rx.received[0].at).toBeGreaterThanOrEqual(180);
    await waitUntil(
      async () =>
        Number(
          (
            await knex('webhooks_delivery_attempts')
              .count({ n: '*' })
              .whereIn('delivery_id', knex('webhooks_deliveries').select('id').where({ endpoint_id: ep.id }))
          )[0].n,
        ) === 2,
    );
    const attempts = await knex('webhooks_delivery_attempts')
      .orderBy('attempt_number')
      .whereIn('delivery_id', knex('webhooks_deliveries').select('id').where({ endpoint_id: ep.id }));
    expect(attempts.map((a) => [a.attempt_number, a.status_code, a.response_body])).toEqual([
      [1, 500, 'boom'],
      [2, 200, 'ok'],
    ]);
    await rx.close();
  });

  it('stores one delivery for an event the broker hands over twice', async () => {
    const team = randomTeam();
    const rx = await startReceiver();
    const ep = await insertEndpoint(knex, { team_id: team, url: rx.url });
    const event = envelope(team);
    await pub.send([event, event]);
    await waitUntil(() => rx.received.length >= 1);
    await new Promise((r) => setTimeout(r, 400));
    expect(Number((await knex('webhooks_deliveries').where({ endpoint_id: ep.id }).count({ n: '*' }))[0].n)).toBe(1);
    expect(rx.received).toHaveLength(1);
    await rx.close();
  });

  it('disables the endpoint on 410 and emits webhooks_endpoint.updated', async () => {
    const team = randomTeam();
    const rx = await startReceiver(() => ({ status: 410 }));
    const ep = await insertEndpoint(knex, { team_id: team, url: rx.url });
    await pub.send([envelope(team)]);
    await waitUntil(async () => (await knex('webhooks_endpoints').where({ id: ep.id }).first()).enabled === false, 10_000, 'disabled');
    const row = await knex('webhooks_endpoints').where({ id: ep.id }).first();
    expect(row.disabled_reason).toMatch(/410/);
    const events = await knex('outbox').where({ type: 'webhooks_endpoint.updated', team_id: team });
    expect(events).toHaveLength(1);
    expect(events[0].payload.data.attributes.enabled).toBe(false);
    // Endpoint events carry the URL masked past its host (a chat webhook URL is a credential).
    expect(events[0].payload.data.attributes.url).toBe(`${rx.url}/****`);
    await pub.send([envelope(team)]);
    await new Promise((r) => setTimeout(r, 300));
    expect(rx.received).toHaveLength(1);
    await rx.close();
  });

  it('auto-disables an endpoint that has failed for longer than the threshold', async () => {
    const team = randomTeam();
    const rx = await startReceiver(() => ({ status: 503 }));
    const ep = await insertEndpoint(knex, { team_id: team, url: rx.url });
    await knex('webhooks_endpoints')
      .where({ id: ep.id })
      .update({ failing_since: new Date(Date.now() - 6 * 86_400_000) });
    await pub.send([envelope(team)]);
    await waitUntil(async () => (await knex('webhooks_endpoints').where({ id: ep.id }).first()).enabled === false, 10_000, 'auto-disabled');
    expect((await knex('webhooks_endpoints').where({ id: ep.id }).first()).disabled_reason).toMatch(/every attempt failed since/);
    await rx.close();
  });

  it('sends one endpoint its events in the order they were consumed', async () => {
    const team = randomTeam();
    const rx = await startReceiver();
    await insertEndpoint(knex, { team_id: team, url: rx.url });
    const events = Array.from({ length: 60 }, () => envelope(team));
    await pub.send(events);
    await waitUntil(() => rx.received.length === 60, 15_000, '60 deliveries');
    expect(rx.received.map((r) => JSON.parse(r.body).event.id)).toEqual(events.map((e) => e.id));
    await rx.close();
  });
});
