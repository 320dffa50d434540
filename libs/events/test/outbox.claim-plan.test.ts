import knex, { type Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { outboxMigration, pipelinedTransaction } from '../src/index.js';
import { takeRows } from '../src/outbox.repository.js';

// The relay's claim must be planned for the outbox as it is when it runs. A plan kept
// from when the table was small (a prepared statement's generic plan, taken after five
// runs) reads the whole table with each batch once a backlog has built up: its drain
// grows with the square of the backlog.
let db: TestDatabase;
/** One connection: every claim runs on the connection whose plans are looked at. */
let one: Knex;
beforeAll(async () => {
  db = await createTestDatabase('fw_events_claim_plan');
  one = knex({ client: 'pg', connection: db.url, pool: { min: 1, max: 1 } });
  await outboxMigration.up(db.knex);
});
afterAll(async () => {
  await one?.destroy();
  await db?.drop();
});

const addRows = (n: number) =>
  db.knex.raw(
    `insert into outbox (id, type, team_id, payload) select gen_random_uuid(), 'environment.created', 1, '{}' from generate_series(1, ?::int)`,
    [n],
  );

describe("the relay's claim", () => {
  it.each([false, true])(
    'reads no more than its batch of a backlog built after it ran on a small outbox (ordered: %s)',
    async (ordered) => {
      // A relay draining a few rows at a time, as after a quiet start.
      for (let i = 0; i < 8; i++) {
        await addRows(2);
        await pipelinedTransaction(one, (trx) => takeRows(trx, 200, ordered));
      }
      // A broker outage: the backlog builds (no autovacuum, no ANALYZE since).
      await addRows(100_000);
      const read = await pipelinedTransaction(one, async (trx) => {
        expect(await takeRows(trx, 200, ordered)).toHaveLength(200);
        const { rows } = await trx.raw(`select seq_scan, seq_tup_read from pg_stat_xact_user_tables where relname = 'outbox'`);
        return rows[0] as { seq_scan: string; seq_tup_read: string };
      });
      expect(Number(read.seq_tup_read)).toBeLessThan(1000);
      await db.knex('outbox').delete();
    },
  );
});
