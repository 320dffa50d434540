import knexFactory, { type Knex } from 'knex';
import { migrate } from '@firewatch/db';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { migrations } from '../migrations/index.js';

// Migration 0501 builds indexes on the alert tables, which every alert, acknowledge and
// page writes to and which grow without bound. Every replica migrates at start-up, so
// while the new release builds them the old one is still taking in alerts: the build
// must not stop those writes (a plain CREATE INDEX holds a SHARE lock for all of it).
const LIST_ORDER = '20261230-0501-list-order-indexes';

describe('migration 0501 (list-order indexes) on the alert tables', () => {
  let db: TestDatabase;
  let others: Knex;
  beforeAll(async () => {
    db = await createTestDatabase();
    others = knexFactory({ client: 'pg', connection: (db.knex as Knex).client.config.connection, pool: { min: 0, max: 4 } });
    await migrate(db.knex as Knex, Object.fromEntries(Object.entries(migrations).filter(([name]) => name < LIST_ORDER)));
  });
  afterAll(async () => {
    await others?.destroy();
    await db?.drop();
  });

  /** Resolves once the migration's index build on `table` waits for a writer's transaction. */
  async function buildWaitsOn(table: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await others.raw(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
           AND query ILIKE 'create index%' AND query LIKE ?`,
        [`% ON "${table}" %`],
      );
      if (rows.length) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`the index build on ${table} never waited`);
  }

  /** Whether a new writer gets the lock an insert takes on `table` within a second. */
  async function writable(table: string): Promise<boolean> {
    const writer = await others.transaction();
    try {
      await writer.raw("SET LOCAL lock_timeout = '1s'");
      await writer.raw(`LOCK TABLE ${table} IN ROW EXCLUSIVE MODE`);
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === '55P03') return false;
      throw err;
    } finally {
      await writer.rollback().catch(() => undefined);
    }
  }

  it('lets new writes into alerts and alert_events through while it builds their indexes, and leaves every index valid', async () => {
    // A write in flight on each table (an insert's lock), as the old release's intake has.
    const onAlerts = await others.transaction();
    await onAlerts.raw('LOCK TABLE alerts IN ROW EXCLUSIVE MODE');
    const running = migrate(db.knex as Knex, migrations);
    try {
      await buildWaitsOn('alerts');
      expect(await writable('alerts')).toBe(true);
      const onEvents = await others.transaction();
      await onEvents.raw('LOCK TABLE alert_events IN ROW EXCLUSIVE MODE');
      await onAlerts.commit();
      await buildWaitsOn('alert_events');
      expect(await writable('alert_events')).toBe(true);
      expect(await writable('alerts')).toBe(true);
      await onEvents.commit();
    } finally {
      await onAlerts.rollback().catch(() => undefined);
      await running.catch(() => undefined);
    }
    expect(await running).toContain(LIST_ORDER);
    const { rows } = await others.raw(
      `SELECT c.relname, i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname LIKE '%\\_list\\_order\\_index' ORDER BY 1`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(11);
    expect(rows.filter((r: { indisvalid: boolean }) => !r.indisvalid)).toEqual([]);
  }, 30_000);
});
