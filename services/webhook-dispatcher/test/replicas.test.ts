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
const queue = uniqueQueue();

beforeAll(async () => {
  db = await createWebhooksDb();
});
afterAll(async () => {
  await db?.drop();
});

describe('several dispatcher replicas', () => {
  it('share the queue and never send one delivery twice at the same time', async () => {
    const knex = db.knex as Knex;
    const team = randomTeam();
    let inFlight = new Map<string, number>();
    let overlap = 0;
    // A slow receiver makes overlapping sends of one delivery visible if they happened.
    const rx = await startReceiver((r) => {
      const id = String(r.headers['webhook-id']);
      if ((inFlight.get(id) ?? 0) > 0) overlap++;
      inFlight.set(id, 1);
      setTimeout(() => inFlight.set(id, 0), 5);
      return { status: 200 };
    });
    const endpoints = await Promise.all(Array.from({ length: 4 }, () => insertEndpoint(knex, { team_id: team, url: rx.url })));
    // One endpoint's job at a time each: a replica that claimed every endpoint and claimed
    // again at each job's end could otherwise do all the sending, before another's turn.
    const replicas = [
      startDispatcher(knex, queue, { WEBHOOK_PREFETCH: '20', WEBHOOK_CONCURRENCY: '1' }),
      startDispatcher(knex, queue, { WEBHOOK_PREFETCH: '20', WEBHOOK_CONCURRENCY: '1' }),
      startDispatcher(knex, queue, { WEBHOOK_PREFETCH: '20', WEBHOOK_CONCURRENCY: '1' }),
    ];
    const pub = await publisher(queue);
    try {
      for (const r of replicas) await r.start();
      const events = Array.from({ length: 300 }, () => envelope(team));
      await pub.send(events);
      await waitUntil(() => rx.received.length >= 1200, 30_000, '1200 deliveries');
      await new Promise((r) => setTimeout(r, 500));
      const ids = rx.received.map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(1200);
      expect(new Set(ids).size).toBe(1200);
      expect(overlap).toBe(0);
      const perEndpoint = await knex('webhooks_deliveries').select('endpoint_id').count({ n: '*' }).groupBy('endpoint_id');
      expect(perEndpoint.map((r) => Number(r.n))).toEqual([300, 300, 300, 300]);
      expect(endpoints).toHaveLength(4);
      expect(replicas.map((r) => r.stats.sent).filter((n) => n > 0).length).toBeGreaterThan(1);
    } finally {
      // Stopped whatever failed: running replicas would keep the test run from ending.
      for (const r of replicas) await r.stop();
      await pub.close();
      await rx.close();
      inFlight = new Map();
    }
  }, 60_000);
});
