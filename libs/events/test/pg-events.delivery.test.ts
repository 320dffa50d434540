// The PostgreSQL transport's delivery guarantees, queue by queue: a consumer that died
// mid-event, an event no handler can take, two replicas of one consumer, acks batched
// per turn of the event loop, and a consumer started before its queue was provisioned.
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import pg from 'pg';
import { createLogger } from '@firewatch/logger';
import { DELIVERY_LIMIT } from '../src/consumer-queue.js';
import { createEventTransport, type EventEnvelope, type TransportConsumer } from '../src/index.js';
import { logger, pgEventsWorld, waitUntil } from './pg-events.support.js';

const world = pgEventsWorld('dl', ['incidents', 'dispatcher']);
const { tag, roles, asRole } = world;
const queues = ['crash', 'poison', 'replicas'].map((name) => `${name}.${tag}`);
const [crashQueue, poisonQueue, replicaQueue] = queues;
const publishers = { 'incident-config': roles.incidents };

// incident-config's role publishes, as its relay would.
async function publish(count: number): Promise<string[]> {
  const envelopes = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    type: 'incident.updated',
    occurred_at: new Date().toISOString(),
    team_id: 1,
    data: { id: `i${i}` },
  }));
  const c = new pg.Client({ connectionString: asRole(roles.incidents) });
  await c.connect();
  try {
    await c.query('SELECT events.publish($1::jsonb)', [JSON.stringify(envelopes)]);
  } finally {
    await c.end();
  }
  return envelopes.map((e) => e.id);
}

async function deliveries(queue: string): Promise<{ attempts: number; dead: boolean; last_error: string | null }[]> {
  const c = world.adminClient();
  await c.connect();
  try {
    const { rows } = await c.query('SELECT attempts, dead_at IS NOT NULL AS dead, last_error FROM events.deliveries WHERE queue = $1', [
      queue,
    ]);
    return rows;
  } finally {
    await c.end();
  }
}

const consumers: TransportConsumer[] = [];
function consume(queue: string, handler: (e: EventEnvelope) => Promise<void>, log = logger): Promise<TransportConsumer> {
  const consumer = createEventTransport({ EVENTS_DATABASE_URL: asRole(roles.dispatcher) }).consume({
    logger: log,
    queue,
    bindings: [],
    prefetch: 10,
    publishers,
    handler,
    retryDelayMs: 10,
  });
  consumers.push(consumer);
  return consumer.start().then(() => consumer);
}

beforeAll(async () => {
  await world.create(queues.map((queue) => ({ queue, role: roles.dispatcher, bindings: ['incident.*'] })));
});

afterEach(async () => {
  for (const c of consumers.splice(0)) await c.stop();
});

afterAll(async () => {
  await world.drop();
});

it('hands an event claimed by a consumer that died mid-handler to another once its lease ran out, not before', async () => {
  const [id] = await publish(1);
  // The dead consumer: it claimed under a 1.5 s lease and never settled.
  const dead = new pg.Client({ connectionString: asRole(roles.dispatcher) });
  await dead.connect();
  const claimed = await dead.query('SELECT * FROM events.claim($1, 10, 1500, $2)', [crashQueue, DELIVERY_LIMIT]);
  await dead.end();
  expect(claimed.rows).toHaveLength(1);
  const claimedAt = Date.now();
  const seen: { id: string; at: number }[] = [];
  await consume(crashQueue, async (e) => {
    seen.push({ id: e.id, at: Date.now() });
  });
  await waitUntil(() => seen.length === 1, 10_000, 'the redelivery');
  expect(seen[0].id).toBe(id);
  expect(seen[0].at - claimedAt).toBeGreaterThanOrEqual(1400);
  await waitUntil(async () => (await deliveries(crashQueue)).length === 0, 5000, 'the ack');
});

it(`keeps an event its handler always refuses as dead after ${DELIVERY_LIMIT} deliveries, with the last error`, async () => {
  await publish(1);
  let calls = 0;
  await consume(poisonQueue, async () => {
    calls++;
    throw new Error('cannot take this one');
  });
  await waitUntil(async () => (await deliveries(poisonQueue))[0]?.dead === true, 20_000, 'the event to die');
  // Dead rows are not claimed again: the handler saw it exactly DELIVERY_LIMIT times.
  await new Promise((r) => setTimeout(r, 200));
  expect(calls).toBe(DELIVERY_LIMIT);
  expect(await deliveries(poisonQueue)).toEqual([{ attempts: DELIVERY_LIMIT, dead: true, last_error: 'delivery limit reached' }]);
});

it('shares a queue between two replicas: each event handled once, every one acked (batched acks)', async () => {
  const handled = new Map<string, number>();
  const count = (e: EventEnvelope) => handled.set(e.id, (handled.get(e.id) ?? 0) + 1);
  // Handlers that finish in the same turn (no await) and in later turns, so acks batch both ways.
  await consume(replicaQueue, async (e) => void count(e));
  await consume(replicaQueue, async (e) => {
    await new Promise((r) => setTimeout(r, Math.random() * 5));
    count(e);
  });
  const ids = await publish(500);
  await waitUntil(() => handled.size === ids.length, 30_000, 'every event');
  await waitUntil(async () => (await deliveries(replicaQueue)).length === 0, 10_000, 'every ack');
  await new Promise((r) => setTimeout(r, 300));
  expect([...handled.values()].filter((n) => n !== 1)).toEqual([]);
  expect(new Set(handled.keys())).toEqual(new Set(ids));
});

it('says why a consumer whose queue was never provisioned takes nothing', async () => {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  const log = createLogger({ service: 'events-test', level: 'warn', stream });
  const consumer = await consume(`missing.${tag}`, async () => undefined, log);
  await waitUntil(() => lines.some((l) => l.includes('provision the events database')), 5000, 'the reason in the log');
  expect(consumer.connected).toBe(false);
});

// Earlier tests' events fan out to every queue bound to incident.*: empty the ones a test does not use.
async function drainQueue(queue: string): Promise<void> {
  const c = world.adminClient();
  await c.connect();
  await c.query('DELETE FROM events.deliveries WHERE queue = $1', [queue]);
  await c.end();
}

beforeEach(async () => {
  await Promise.all(queues.map((q) => drainQueue(q)));
});
