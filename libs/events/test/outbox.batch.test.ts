import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import type { TransportPublisher } from '../src/event-transport.js';
import { relayBatch } from '../src/outbox.batch.js';
import type { BatchOutcome, OutboxRow } from '../src/outbox.publisher.js';
import { outboxMigration, writeEvent, writeEvents } from '../src/index.js';
import { logger } from './support.js';

// One batch takes its rows out of the outbox (DELETE … RETURNING) and puts back what the
// transport did not confirm: those keep their place ahead of rows written meanwhile, a
// batch that dies mid-publish leaves every row as it was, and no other relay takes a row
// while its batch is out.
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('fw_events_batch');
  await outboxMigration.up(db.knex);
});
afterAll(async () => db?.drop());
beforeEach(async () => {
  await db.knex('outbox').delete();
});

/** A transport whose answer to each batch the test scripts; it records what it was handed. */
function scripted(answer: (rows: OutboxRow[]) => Promise<BatchOutcome>) {
  const handed: string[][] = [];
  const publisher = {
    async publish(rows: OutboxRow[]) {
      handed.push(rows.map((r) => r.id));
      return answer(rows);
    },
  } as unknown as TransportPublisher;
  return { publisher, handed };
}
const confirmAll = async (rows: OutboxRow[]): Promise<BatchOutcome> => ({ confirmed: rows, poisoned: [], unsent: [] });
const batch = (publisher: TransportPublisher, ordered = true) => relayBatch(publisher, { knex: db.knex, logger, batchSize: 10, ordered });
const stored = () => db.knex('outbox').orderBy('seq').select('seq', 'id', 'payload', 'attempts', 'last_error');

it('puts back what the transport did not send ahead of a row written while the batch was out, and publishes it first', async () => {
  const [a, b, c] = await writeEvents(db.knex, [
    { type: 'secret.created', team_id: 1, data: null },
    { type: 'secret.updated', team_id: 1, data: null },
    { type: 'secret.deleted', team_id: 1, data: null },
  ]);
  const before = await stored();
  let later = '';
  const { publisher, handed } = scripted(async (rows) => {
    // Committed while the batch holds its rows: a higher seq, whatever the put-back does.
    later = (await writeEvent(db.knex, { type: 'secret.created', team_id: 1, data: null })).id;
    return { confirmed: rows.slice(0, 1), poisoned: [], unsent: rows.slice(1), failure: new Error('channel closed') };
  });
  expect(await batch(publisher)).toMatchObject({ claimed: 3, published: 1 });
  expect(handed).toEqual([[a.id, b.id, c.id]]);
  const after = await stored();
  expect(after.map((r) => r.id)).toEqual([b.id, c.id, later]);
  // As stored, their failure noted.
  expect(after.slice(0, 2)).toEqual(before.slice(1).map((r) => ({ ...r, attempts: 1, last_error: 'channel closed' })));
  const next = scripted(confirmAll);
  expect(await batch(next.publisher)).toMatchObject({ claimed: 3, published: 3 });
  expect(next.handed).toEqual([[b.id, c.id, later]]);
  expect(await stored()).toEqual([]);
});

it('leaves every row as it was when the batch dies mid-publish (the transaction rolls back)', async () => {
  await writeEvents(db.knex, [
    { type: 'secret.created', team_id: 1, data: null },
    { type: 'secret.updated', team_id: 1, data: null },
  ]);
  const before = await stored();
  const { publisher } = scripted(async () => {
    throw new Error('process lost mid-publish');
  });
  await expect(batch(publisher)).rejects.toThrow('process lost mid-publish');
  expect(await stored()).toEqual(before);
});

it('lets no other relay take a row while its batch is out: an ordered one waits its turn, a parallel one takes only later rows', async () => {
  const [first] = await writeEvents(db.knex, [{ type: 'secret.created', team_id: 1, data: null }]);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let out!: () => void;
  const isOut = new Promise<void>((resolve) => (out = resolve));
  const slow = scripted(async (rows) => {
    out();
    await held;
    return { confirmed: [], poisoned: [], unsent: rows, failure: new Error('no confirm') };
  });
  const running = batch(slow.publisher);
  await isOut;
  const [second] = await writeEvents(db.knex, [{ type: 'secret.updated', team_id: 1, data: null }]);
  const ordered = scripted(confirmAll);
  expect(await batch(ordered.publisher, true)).toEqual({ claimed: 0, published: 0 });
  const parallel = scripted(confirmAll);
  expect(await batch(parallel.publisher, false)).toMatchObject({ claimed: 1, published: 1 });
  expect(parallel.handed).toEqual([[second.id]]);
  release();
  await running;
  expect((await stored()).map((r) => r.id)).toEqual([first.id]);
});
