import type { Knex } from 'knex';
import type pg from 'pg';
import { createKeyedSource, ingest } from './support/ingest.js';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';

let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall();
});

afterAll(async () => h?.close());

/** Index scans PostgreSQL counted on `alerts`, by index name, once `session`'s counts are flushed. */
async function indexScans(session: pg.Client): Promise<Record<string, number>> {
  const { rows } = await session.query(
    `SELECT indexrelname AS name, idx_scan::int AS scans FROM pg_stat_user_indexes WHERE relname = 'alerts'`,
  );
  return Object.fromEntries((rows as { name: string; scans: number }[]).map((r) => [r.name, r.scans]));
}

describe('the intake lock-and-read functions on a table that grew since they were first planned (migration 20261231-0100)', () => {
  it('find an open alert by its deduplication key through the key index, not by walking the team', async () => {
    const source = await createKeyedSource(h);
    expect((await ingest(h, source.id, source.secret, { id: 'first', summary: 'disk full' })).status).toBe(202);
    const knex = h.db.knex as Knex;
    const [alert] = (await knex('alerts').where({ deduplication_key: 'first' })) as { team_id: number; deduplication_scope: string }[];

    // One connection throughout: PL/pgSQL keeps its plans per connection.
    const session = (await knex.client.acquireConnection()) as pg.Client;
    try {
      const lookup = (key: string) =>
        session.query('SELECT * FROM firewatch_lock_open_alert($1, $2, $3, $4)', [
          `k:${key}`,
          alert.team_id,
          alert.deduplication_scope,
          key,
        ]);
      // Planned often enough on a nearly empty table that a cached generic plan would be chosen.
      for (let i = 0; i < 10; i++) await lookup(`absent-${i}`);
      // The team's alerts grow past what a walk of them costs nothing; never analyzed, as with autovacuum off.
      await knex.raw(
        `INSERT INTO alerts
         SELECT (jsonb_populate_record(a, jsonb_build_object('id', gen_random_uuid(), 'short_id', a.short_id || '-' || n, 'deduplication_key', 'bulk-' || n))).*
           FROM alerts a, generate_series(1, 5000) AS n WHERE a.deduplication_key = 'first'`,
      );
      await session.query('SELECT pg_stat_force_next_flush()');
      const before = await indexScans(session);
      for (let i = 0; i < 20; i++) await lookup(`bulk-${i * 7}`);
      await session.query('SELECT pg_stat_force_next_flush()');
      await session.query('SELECT 1');
      const after = await indexScans(session);
      expect(after.alerts_open_deduplication_key_unique - before.alerts_open_deduplication_key_unique).toBeGreaterThanOrEqual(20);
      expect(after.alerts_list_order_index - before.alerts_list_order_index).toBe(0);
    } finally {
      await knex.client.releaseConnection(session);
    }
  });
});
