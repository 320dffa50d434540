import { randomUUID } from 'node:crypto';
import { collectEvents, createTestDatabase, type EventCollector, type TestDatabase } from '@firewatch/testing';
import { createOutboxRelay, outboxMigration, writeEvent, writeEvents, type OutboxRelay } from '../src/index.js';
import { amqpUrl, deleteTopology, logger, recordMessages, uniqueName, waitUntil } from './support.js';

const exchange = uniqueName('test.events.relay');
let db: TestDatabase;
let relay: OutboxRelay;
let events: EventCollector;

const count = async () => Number((await db.knex('outbox').count<{ n: string }[]>('* as n'))[0].n);

beforeAll(async () => {
  db = await createTestDatabase('fw_events_relay');
  await outboxMigration.up(db.knex);
  events = await collectEvents(amqpUrl(), exchange);
  // A poll far longer than the test: only a wake (a commit in this process, or NOTIFY) reaches the relay in time.
  relay = createOutboxRelay({ knex: db.knex, amqpUrl: amqpUrl(), logger, exchange, pollIntervalMs: 60_000 });
  await relay.start();
});

afterAll(async () => {
  await relay?.stop();
  await events?.close();
  await db?.drop();
  await deleteTopology({ exchanges: [exchange] });
});

beforeEach(() => {
  events.events.length = 0;
});

it('connects and listens', () => {
  expect(relay.stats).toMatchObject({ connected: true, listening: true, blocked: false });
});

it('publishes nothing for a rolled-back transaction, and committed events in order', async () => {
  await db.knex
    .transaction(async (trx) => {
      await writeEvent(trx, { type: 'incident.created', team_id: 1, data: { id: 'rolled-back' } });
      await trx.rollback();
    })
    .catch(() => undefined);
  const first = await db.knex.transaction((trx) =>
    writeEvents(trx, [
      { type: 'incident.created', team_id: 3, data: { id: 'i1', type: 'incidents', attributes: { title: 'a' } } },
      { type: 'incident.updated', team_id: 3, data: { id: 'i1', type: 'incidents', attributes: { title: 'b' } } },
    ]),
  );
  const second = await db.knex.transaction((trx) => writeEvent(trx, { type: 'incident.resolved', team_id: 3, data: { id: 'i1' } }));
  const written = [...first, second];

  await events.waitFor((e) => e.length >= 3, 5000);
  await new Promise((r) => setTimeout(r, 200));
  expect(events.events.map((e) => e.routingKey)).toEqual(['incident.created', 'incident.updated', 'incident.resolved']);
  expect(events.events.map((e) => e.body)).toEqual(written);
  expect(events.events.some((e) => JSON.stringify(e.body).includes('rolled-back'))).toBe(false);
  await waitUntil(async () => (await count()) === 0, 5000, 'outbox rows to be deleted');
});

it('sets the AMQP properties consumers rely on', async () => {
  const rec = await recordMessages(exchange, 'dashboard.*');
  try {
    const env = await writeEvent(db.knex, { type: 'dashboard.updated', team_id: 9, data: { id: 'd' } });
    await waitUntil(() => rec.messages.length === 1, 5000, 'the message');
    const [msg] = rec.messages;
    expect(msg.fields.routingKey).toBe('dashboard.updated');
    expect(msg.properties).toMatchObject({
      messageId: env.id,
      type: 'dashboard.updated',
      contentType: 'application/json',
      deliveryMode: 2,
      headers: { team_id: 9 },
      // The connection's user, which the broker checked and consumers judge the publisher by.
      userId: 'guest',
    });
    // The envelope keeps its documented key order although jsonb does not.
    expect(Object.keys(JSON.parse(msg.content.toString()))).toEqual(['id', 'type', 'occurred_at', 'team_id', 'data']);
  } finally {
    await rec.close();
  }
});

it('drains a backlog larger than a batch', async () => {
  const envs = await writeEvents(
    db.knex,
    Array.from({ length: 450 }, (_, i) => ({ type: 'service.updated', team_id: 1, data: { n: i } })),
  );
  await events.waitFor((e) => e.length >= 450, 10_000);
  expect(events.events.map((e) => e.body.id)).toEqual(envs.map((e) => e.id));
  await waitUntil(async () => (await count()) === 0, 5000, 'outbox rows to be deleted');
  expect(relay.stats.published).toBeGreaterThanOrEqual(454);
});

it('defers a row the broker path refuses and lets later rows overtake it', async () => {
  // Bypasses writeEvent: a routing key over 255 bytes cannot be encoded by the client.
  const poisonId = randomUUID();
  const longType = `x.${'y'.repeat(300)}`;
  const [{ seq }] = await db
    .knex('outbox')
    .insert({ id: poisonId, type: longType, team_id: 1, payload: JSON.stringify({ id: poisonId, type: longType }) })
    .returning('seq');
  const after = await writeEvents(db.knex, [
    { type: 'secret.created', team_id: 1, data: null },
    { type: 'secret.deleted', team_id: 1, data: null },
  ]);
  await events.waitFor((e) => e.length >= 2, 5000);
  expect(events.events.map((e) => e.body.id)).toEqual(after.map((e) => e.id));

  await waitUntil(async () => (await count()) === 1, 5000, 'only the refused row to remain');
  const row = await db.knex('outbox').where({ id: poisonId }).first();
  expect(row.attempts).toBe(1);
  // Put back as it was stored: its place in the order and its payload.
  expect(row.seq).toBe(seq);
  expect(row.payload).toEqual({ id: poisonId, type: longType });
  expect(row.last_error).toMatch(/routingKey/);
  expect(row.available_at.getTime()).toBeGreaterThan(Date.now());
  expect(relay.stats.lastError).toMatch(/routingKey/);
  await db.knex('outbox').where({ id: poisonId }).delete();
});

it('settles a confirmed batch in one statement besides BEGIN and COMMIT: its turn, claim and delete', async () => {
  const statements: string[] = [];
  const seen = (q: { sql: string }) => statements.push(q.sql);
  db.knex.on('query', seen);
  try {
    const env = await writeEvent(db.knex, { type: 'secret.updated', team_id: 1, data: null });
    await events.waitFor((e) => e.some((m) => m.body.id === env.id), 5000);
    await waitUntil(async () => (await count()) === 0, 5000, 'the row to be deleted');
  } finally {
    db.knex.off('query', seen);
  }
  const relayed = statements.filter((sql) => /outbox|advisory/i.test(sql) && !/^(insert into "outbox"|select count)/i.test(sql));
  // (An extra wake-up may find nothing: each batch is that one statement.)
  expect(relayed.length).toBeGreaterThan(0);
  for (const sql of relayed) expect(sql).toMatch(/^DELETE FROM outbox WHERE seq IN \(/);
});

it('stops idempotently and leaves later rows in the outbox', async () => {
  await Promise.all([relay.stop(), relay.stop()]);
  expect(relay.stats.connected).toBe(false);
  expect(relay.stats.listening).toBe(false);
  await writeEvent(db.knex, { type: 'schedule.created', team_id: 1, data: null });
  await new Promise((r) => setTimeout(r, 300));
  expect(await count()).toBe(1);
  expect(events.events).toHaveLength(0);
});
