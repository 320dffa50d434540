import knexFactory, { type Knex } from 'knex';
import type { TestDatabase } from '@firewatch/testing';
import { createDispatchRepository } from '../src/data/dispatch.repository.js';
import { withIndexPlans } from '../src/data/index-plans.js';
import { createIntakeRepository } from '../src/data/intake.repository.js';
import type { ClaimedDelivery, JobOutcome } from '../src/domain/dispatch.types.js';
import { createWebhooksDb, envelope, insertEndpoint, randomTeam } from './support.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createWebhooksDb();
});
afterAll(async () => {
  await db?.drop();
});

const delivered = (claimed: ClaimedDelivery[]): JobOutcome => ({
  attempts: claimed.map((d) => ({
    delivery_id: d.id,
    attempt_number: 1,
    trigger: 'scheduled',
    url: d.url,
    status_code: 204,
    duration_ms: 1,
    response_body: '',
    error: null,
  })),
  updates: claimed.map((d) => ({
    id: d.id,
    lease_token: d.lease_token,
    status: 'delivered',
    next_attempt_at: null,
    delivered_at: new Date().toISOString(),
    failures: 0,
    last_status_code: 204,
    last_error: null,
  })),
  released: [],
  endpoint: { id: claimed[0].endpoint_id, lastSucceeded: null, gone: false, firstFailureAt: null },
});

describe('the claim and a job record, prepared', () => {
  it('withIndexPlans adds its settings to the startup options, keeping any given', () => {
    const url = new URL(withIndexPlans('postgres://u@h:5432/db?options=-c%20work_mem%3D8MB&sslmode=disable'));
    expect(url.searchParams.get('options')).toBe('-c work_mem=8MB -c enable_seqscan=off -c enable_hashjoin=off -c enable_mergejoin=off');
    expect(url.searchParams.get('sslmode')).toBe('disable');
    expect(url.pathname).toBe('/db');
  });

  it('keep the generic plan made on an empty table, an index plan, after 100,000 deliveries', async () => {
    // One connection, so the statements prepared are the ones this session sees.
    const one: Knex = knexFactory({ client: 'pg', connection: withIndexPlans(db.url), pool: { min: 1, max: 1 } });
    try {
      const team = randomTeam();
      const ep = await insertEndpoint(one, { team_id: team, url: 'http://plan.test/' });
      const intake = createIntakeRepository(one);
      const repo = createDispatchRepository(one, { disableAfterMs: 3_600_000 });
      const cycle = async (events: number) => {
        await intake.store(Array.from({ length: events }, () => envelope(team)));
        const claimed = await repo.claim(100, 30_000);
        expect(claimed).toHaveLength(events);
        await repo.record(delivered(claimed));
      };
      // PostgreSQL makes the generic plan after five custom ones, here on a nearly empty table.
      for (let i = 0; i < 7; i++) await cycle(1);
      // A long-lived dispatcher's history (no autovacuum, no ANALYZE since).
      await one.raw(
        `INSERT INTO webhooks_deliveries (team_id, endpoint_id, event_id, event_type, payload, status, next_attempt_at, delivered_at)
         SELECT ?, ?, gen_random_uuid(), 'environment.created', repeat('x', 300), 'delivered', NULL, now() FROM generate_series(1, 100000)`,
        [team, ep.id],
      );
      await cycle(3);
      const statements = (
        await one.raw(`SELECT name, statement, generic_plans FROM pg_prepared_statements WHERE statement ~ 'UPDATE webhooks_deliveries'`)
      ).rows as { name: string; statement: string; generic_plans: string }[];
      const claim = statements.find((s) => /SKIP LOCKED/.test(s.statement));
      const record = statements.find((s) => /jsonb_to_recordset/.test(s.statement));
      expect(Number(claim?.generic_plans)).toBeGreaterThan(0);
      expect(Number(record?.generic_plans)).toBeGreaterThan(0);
      const plan = async (name: string, args: string) =>
        JSON.stringify((await one.raw(`EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE ${name}(${args})`)).rows[0]['QUERY PLAN']);
      const plans = [await plan(claim!.name, `30, '00000000-0000-4000-8000-000000000000', 100`), await plan(record!.name, `'[]', '[]'`)];
      for (const p of plans) {
        expect(p).not.toMatch(/Seq Scan|Hash Join|Merge Join/);
        // Still the generic plan: a custom plan would show the parameters' values, not $n.
        expect(p).toMatch(/\$\d/);
      }
    } finally {
      await one.destroy();
    }
  }, 60_000);
});
