import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { createOutboxRelay, outboxBacklog, outboxMigration, writeEvents, type OutboxRelay } from '../src/index.js';
import { amqpUrl, deleteTopology, logger, uniqueName, waitUntil } from './support.js';

const exchange = uniqueName('test.events.metrics');
let db: TestDatabase;
let relay: OutboxRelay | undefined;

beforeAll(async () => {
  db = await createTestDatabase('fw_events_metrics');
  await outboxMigration.up(db.knex);
});

afterAll(async () => {
  await relay?.stop();
  await db?.drop();
  await deleteTopology({ exchanges: [exchange] });
});

it("reports the backlog and its oldest event's age, and tells the observer of each confirmed batch", async () => {
  expect(await outboxBacklog(db.knex)).toEqual({ events: 0, oldestAgeSeconds: null });
  await writeEvents(
    db.knex,
    Array.from({ length: 3 }, (_, i) => ({ type: 'service.updated', team_id: 1, data: { n: i } })),
  );
  await db.knex('outbox').update({ created_at: db.knex.raw("now() - interval '90 seconds'") });
  const backlog = await outboxBacklog(db.knex);
  expect(backlog.events).toBe(3);
  expect(backlog.oldestAgeSeconds).toBeGreaterThanOrEqual(90);
  expect(backlog.oldestAgeSeconds).toBeLessThan(120);

  const batches: { events: number; seconds: number }[] = [];
  relay = createOutboxRelay({
    knex: db.knex,
    amqpUrl: amqpUrl(),
    logger,
    exchange,
    observer: { published: (events, seconds) => batches.push({ events, seconds }) },
  });
  await relay.start();
  await waitUntil(() => batches.reduce((n, b) => n + b.events, 0) === 3, 5000, 'three events published');
  expect(batches.every((b) => b.seconds > 0 && b.seconds < 5)).toBe(true);
  expect(await outboxBacklog(db.knex)).toEqual({ events: 0, oldestAgeSeconds: null });
});
