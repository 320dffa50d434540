import { collectEvents, createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { createOutboxRelay, outboxMigration, writeEvents, type EventEnvelope } from '../src/index.js';
import { amqpUrl, deleteTopology, logger, uniqueName, waitUntil } from './support.js';

const exchanges: string[] = [];
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('fw_events_concurrency');
  await outboxMigration.up(db.knex);
});
afterAll(async () => {
  await db?.drop();
  await deleteTopology({ exchanges });
});

async function runTwoRelays(ordered: boolean) {
  const exchange = uniqueName(`test.events.two-relays.${ordered ? 'ordered' : 'parallel'}`);
  exchanges.push(exchange);
  const events = await collectEvents(amqpUrl(), exchange);
  const relays = [1, 2].map((n) =>
    createOutboxRelay({
      knex: db.knex,
      amqpUrl: amqpUrl(),
      logger,
      exchange,
      ordered,
      batchSize: 50,
      pollIntervalMs: 50,
      name: `relay-${n}`,
    }),
  );
  // Written in several transactions while both relays are already draining.
  await Promise.all(relays.map((r) => r.start()));
  const written: EventEnvelope[] = [];
  for (let i = 0; i < 10; i++) {
    written.push(
      ...(await db.knex.transaction((trx) =>
        writeEvents(
          trx,
          Array.from({ length: 50 }, (_, j) => ({
            type: 'alert_group.updated',
            team_id: 1,
            data: { n: i * 50 + j },
          })),
        ),
      )),
    );
  }
  try {
    await events.waitFor((e) => e.length >= 500, 20_000);
    await new Promise((r) => setTimeout(r, 500)); // a duplicate would arrive by now
    await waitUntil(async () => Number((await db.knex('outbox').count<{ n: string }[]>('* as n'))[0].n) === 0, 5000, 'empty outbox');
    return { written, received: events.events.map((e) => e.body.id as string), published: relays.map((r) => r.stats.published) };
  } finally {
    await Promise.all(relays.map((r) => r.stop()));
    await events.close();
  }
}

it('two relays in ordered mode publish each row exactly once, in seq order', async () => {
  const { written, received, published } = await runTwoRelays(true);
  expect(received).toHaveLength(500);
  expect(new Set(received).size).toBe(500);
  expect(received).toEqual(written.map((e) => e.id));
  expect(published[0] + published[1]).toBe(500);
});

it('two relays in parallel mode publish each row exactly once, both taking a share', async () => {
  const { written, received, published } = await runTwoRelays(false);
  expect(received).toHaveLength(500);
  expect(new Set(received)).toEqual(new Set(written.map((e) => e.id)));
  expect(published[0] + published[1]).toBe(500);
});
