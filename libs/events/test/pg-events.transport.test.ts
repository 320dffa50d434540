// The PostgreSQL event transport (a machine with Node only): the outbox relay and the
// consumers over the events database, each service as its own role.
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import {
  createEventTransport,
  createOutboxRelay,
  outboxMigration,
  writeEvent,
  type EventEnvelope,
  type OutboxRelay,
  type TransportConsumer,
} from '../src/index.js';
import { logger, pgEventsWorld, waitUntil } from './pg-events.support.js';

const world = pgEventsWorld('pg', ['incidents', 'auth', 'dispatcher']);
const { tag, roles, asRole } = world;
const publishers = { 'incident-config': roles.incidents, auth: roles.auth };

let outbox: TestDatabase;
let relay: OutboxRelay;
const consumers: TransportConsumer[] = [];

function consume(queue: string, role: string, handler: (e: EventEnvelope) => Promise<void>): Promise<TransportConsumer> {
  const consumer = createEventTransport({ EVENTS_DATABASE_URL: asRole(role) }).consume({
    logger,
    queue,
    bindings: [],
    prefetch: 10,
    publishers,
    handler,
    retryDelayMs: 50,
  });
  consumers.push(consumer);
  return consumer.start().then(() => consumer);
}

beforeAll(async () => {
  await world.create([
    { queue: `dispatcher.${tag}`, role: roles.dispatcher, bindings: ['incident.*'] },
    { queue: `groups.${tag}`, role: roles.incidents, bindings: ['group.*'] },
  ]);
  outbox = await createTestDatabase('fw_events_pg_outbox');
  await outboxMigration.up(outbox.knex);
  // incident-config's relay publishes as its own role; a poll longer than the test leaves waking to NOTIFY.
  const transport = createEventTransport({ EVENTS_DATABASE_URL: asRole(roles.incidents) });
  relay = createOutboxRelay({ knex: outbox.knex, transport, logger, pollIntervalMs: 60_000 });
  await relay.start();
});

// Each test consumes on its own: a consumer left from another test would share its queue.
afterEach(async () => {
  for (const c of consumers.splice(0)) await c.stop();
});

afterAll(async () => {
  await relay?.stop();
  await outbox?.drop();
  await world.drop();
});

it('carries an outbox event to the queues bound to its type, once each, and acks it', async () => {
  const got: EventEnvelope[] = [];
  await consume(`dispatcher.${tag}`, roles.dispatcher, async (e) => {
    got.push(e);
  });
  const { id } = await outbox.knex.transaction((trx) => writeEvent(trx, { type: 'incident.created', team_id: 7, data: { id: 'i1' } }));
  await waitUntil(() => got.length === 1, 10_000, 'the event');
  expect(got[0]).toMatchObject({ id, type: 'incident.created', team_id: 7, data: { id: 'i1' } });
  // The consumer may have the event before the relay's outbox transaction commits: wait for that.
  await waitUntil(() => relay.stats.published === 1, 5000, 'the relay to count it');
  expect(relay.stats.connected).toBe(true);
  const rows = await outbox.knex.raw(`SELECT count(*)::int AS n FROM outbox`);
  expect(rows.rows[0].n).toBe(0);
  // Acked: nothing left for the dispatcher; group.* was not bound, so the groups queue got nothing.
  const c = world.adminClient();
  await c.connect();
  await waitUntil(async () => (await c.query('SELECT count(*)::int AS n FROM events.deliveries')).rows[0].n === 0, 5000, 'the ack');
  await c.end();
});

it('delivers again an event whose handler failed (at least once)', async () => {
  const seen: string[] = [];
  await consume(`groups.${tag}`, roles.incidents, async (e) => {
    seen.push(e.id);
    if (seen.length === 1) throw new Error('database hiccup');
  });
  // auth's role publishes group events straight into the events database, as its relay would.
  const authEvents = createEventTransport({ EVENTS_DATABASE_URL: asRole(roles.auth) });
  const publisher = authEvents.publisher({ logger, name: 'test', onReady: () => undefined });
  await publisher.start();
  const payload = { id: crypto.randomUUID(), type: 'group.created', occurred_at: new Date().toISOString(), team_id: 1, data: { id: 'g1' } };
  const out = await publisher.publish([{ seq: 1, id: payload.id, type: payload.type, team_id: 1, payload }]);
  await publisher.close();
  expect(out.confirmed).toHaveLength(1);
  await waitUntil(() => seen.length === 2, 10_000, 'the redelivery');
  expect(seen).toEqual([payload.id, payload.id]);
});

it('drops an event published by a role other than its family owner, as the broker consumer does', async () => {
  const handled: string[] = [];
  await consume(`dispatcher.${tag}`, roles.dispatcher, async (e) => {
    handled.push(e.id);
  });
  // auth's role claims an incident event: it arrives, is acked, and never reaches the handler.
  const c = new pg.Client({ connectionString: asRole(roles.auth) });
  await c.connect();
  const forged = { id: crypto.randomUUID(), type: 'incident.created', occurred_at: new Date().toISOString(), team_id: 1, data: {} };
  try {
    await c.query('SELECT events.publish($1::jsonb)', [JSON.stringify([forged])]);
  } finally {
    await c.end();
  }
  const proper = await outbox.knex.transaction((trx) => writeEvent(trx, { type: 'incident.updated', team_id: 1, data: { id: 'i1' } }));
  await waitUntil(() => handled.includes(proper.id), 10_000, 'the proper event');
  expect(handled).not.toContain(forged.id);
});

it('lets a service role neither take from another role`s queue nor write deliveries itself', async () => {
  const c = new pg.Client({ connectionString: asRole(roles.auth) });
  await c.connect();
  try {
    await expect(c.query('SELECT * FROM events.claim($1, 10, 1000, 20)', [`dispatcher.${tag}`])).rejects.toMatchObject({ code: '42501' });
    // Nor settle them: an ack or a burial would drop another service's events.
    for (const settle of [
      'SELECT events.ack($1, ARRAY[1::bigint])',
      "SELECT events.retry($1, 1, 0, 'x')",
      "SELECT events.bury($1, 1, 'x')",
    ]) {
      await expect(c.query(settle, [`dispatcher.${tag}`])).rejects.toMatchObject({ code: '42501' });
    }
    // Nor read them.
    await expect(c.query('SELECT envelope FROM events.deliveries')).rejects.toMatchObject({ code: '42501' });
    await expect(
      c.query(
        "INSERT INTO events.deliveries (queue, event_id, type, publisher, envelope) VALUES ($1, gen_random_uuid(), 'incident.created', 'x', '{}')",
        [`dispatcher.${tag}`],
      ),
    ).rejects.toMatchObject({ code: '42501' });
  } finally {
    await c.end();
  }
});
