import { collectEvents, createTestDatabase, type EventCollector, type TestDatabase } from '@firewatch/testing';
import { createOutboxRelay, outboxMigration, writeEvents, type OutboxRelay } from '../src/index.js';
import { amqpUrl, deleteTopology, logger, startBrokerProxy, uniqueName, waitUntil } from './support.js';

const exchange = uniqueName('test.events.resilience');
let db: TestDatabase;
let events: EventCollector;
const relays: OutboxRelay[] = [];

const outboxCount = async () => Number((await db.knex('outbox').count<{ n: string }[]>('* as n'))[0].n);
const write = (n: number, tag: string) =>
  writeEvents(
    db.knex,
    Array.from({ length: n }, (_, i) => ({ type: 'incident_event.created', team_id: 1, data: { tag, i } })),
  );
const ids = (envs: { id: string }[]) => envs.map((e) => e.id);

function relay(url: string, extra: Partial<Parameters<typeof createOutboxRelay>[0]> = {}): OutboxRelay {
  const r = createOutboxRelay({ knex: db.knex, amqpUrl: url, logger, exchange, pollIntervalMs: 200, ...extra });
  relays.push(r);
  return r;
}

beforeAll(async () => {
  db = await createTestDatabase('fw_events_resilience');
  await outboxMigration.up(db.knex);
  events = await collectEvents(amqpUrl(), exchange);
});
afterAll(async () => {
  await events?.close();
  await db?.drop();
  await deleteTopology({ exchanges: [exchange] });
});
beforeEach(async () => {
  await db.knex('outbox').delete();
  events.events.length = 0;
});
// A relay left running by a failed test would drain the next test's rows.
afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
});

it('survives its broker connection being dropped', async () => {
  const r = relay(amqpUrl());
  await r.start();
  const before = await write(50, 'before');
  await events.waitFor((e) => e.length >= 50);

  r.simulateConnectionLoss();
  const during = await write(50, 'during'); // written while the relay is reconnecting
  await waitUntil(() => r.stats.connected, 10_000, 'reconnect');
  const after = await write(50, 'after');

  await events.waitFor((e) => new Set(e.map((x) => x.body.id)).size >= 150, 10_000);
  expect(new Set(events.events.map((e) => e.body.id))).toEqual(new Set(ids([...before, ...during, ...after])));
  await waitUntil(async () => (await outboxCount()) === 0, 5000, 'empty outbox');
});

it('keeps rows while the broker is unreachable and publishes them, in order, once it is back', async () => {
  const proxy = await startBrokerProxy();
  try {
    const r = relay(proxy.url);
    await r.start();
    expect(r.stats.connected).toBe(true);
    proxy.down();
    await waitUntil(() => !r.stats.connected, 5000, 'the relay to notice');

    const written = await write(30, 'outage');
    await new Promise((res) => setTimeout(res, 1000));
    expect(events.events).toHaveLength(0);
    expect(await outboxCount()).toBe(30);

    proxy.up();
    await events.waitFor((e) => e.length >= 30, 15_000);
    expect(events.events.map((e) => e.body.id)).toEqual(ids(written));
    await waitUntil(async () => (await outboxCount()) === 0, 5000, 'empty outbox');
  } finally {
    await proxy.close();
  }
});

it('treats a confirm timeout as not sent, keeps the rows and retries on a fresh connection', async () => {
  const proxy = await startBrokerProxy();
  try {
    const r = relay(proxy.url, { confirmTimeoutMs: 500 });
    await r.start();
    proxy.blackhole(true); // the socket stays open but nothing gets through, as on a broken network
    const written = await write(5, 'blackhole');
    const failedRows = () => db.knex('outbox').whereIn('id', ids(written)).where('attempts', '>=', 1);
    await waitUntil(async () => (await failedRows()).length === 5, 5000, 'a confirm timeout recorded on the rows');
    expect(r.stats.lastError).toMatch(/no publisher confirm within 500 ms/);
    expect((await failedRows()).map((row) => row.last_error)).toEqual(Array(5).fill('no publisher confirm within 500 ms'));
    expect(events.events).toHaveLength(0);

    proxy.blackhole(false);
    await events.waitFor((e) => e.length >= 5, 15_000);
    expect(events.events.map((e) => e.body.id)).toEqual(ids(written));
    await waitUntil(async () => (await outboxCount()) === 0, 5000, 'empty outbox');
    expect(r.stats.connected).toBe(true);
  } finally {
    await proxy.close();
  }
});

it('re-LISTENs after its listen connection is killed', async () => {
  const r = relay(amqpUrl(), { pollIntervalMs: 60_000 });
  await r.start();
  await db.knex.raw(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                     WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()`);
  await waitUntil(() => !r.stats.listening, 5000, 'the listener to notice');
  await waitUntil(() => r.stats.listening, 10_000, 'the listener to come back');
  const written = await write(3, 'relisten');
  // With a one-minute poll, only a working LISTEN delivers these quickly.
  await events.waitFor((e) => e.length >= 3, 3000);
  expect(events.events.map((e) => e.body.id)).toEqual(ids(written));
});
