import knexFactory, { type Knex } from 'knex';
import type { TestDatabase } from '@firewatch/testing';
import { createDispatchRepository } from '../src/data/dispatch.repository.js';
import { createWebhooksDb, insertEndpoint, randomTeam } from './support.js';

let db: TestDatabase;
const pools: Knex[] = [];

beforeAll(async () => {
  db = await createWebhooksDb();
});
afterAll(async () => {
  for (const pool of pools) await pool.destroy();
  await db?.drop();
});

describe('claims of several dispatcher replicas', () => {
  it('never lease deliveries of one endpoint to two replicas at once', async () => {
    const knex = db.knex as Knex;
    const team = randomTeam();
    const ep = await insertEndpoint(knex, { team_id: team, url: 'http://127.0.0.1:9/' });
    await knex.raw(
      `INSERT INTO webhooks_deliveries (team_id, endpoint_id, event_id, event_type, payload, next_attempt_at)
       SELECT ?, ?, gen_random_uuid(), 'environment.created', '{}', now() FROM generate_series(1, 200)`,
      [team, ep.id],
    );
    // Two replicas: each its own pool, so their claims run at the same time on two connections.
    const replicas = [0, 1].map(() => {
      const pool = knexFactory({ client: 'pg', connection: db.url, pool: { min: 1, max: 1 } });
      pools.push(pool);
      return createDispatchRepository(pool, { disableAfterMs: 60_000 });
    });
    // Before the fix, both claims of a round got rows of the endpoint in most rounds (both
    // statements' snapshots saw no lease, and SKIP LOCKED split the endpoint's rows).
    const rounds = 200;
    let both = 0;
    let neither = 0;
    for (let round = 0; round < rounds; round++) {
      const claims = await Promise.all(replicas.map((r) => r.claim(1, 30_000)));
      const holders = claims.filter((rows) => rows.some((d) => d.endpoint_id === ep.id)).length;
      if (holders === 2) both++;
      if (holders === 0) neither++;
      // Every round starts with nothing in flight.
      await knex.raw('UPDATE webhooks_deliveries SET leased_until = NULL, lease_token = NULL WHERE leased_until IS NOT NULL');
    }
    expect({ rounds, both, neither }).toEqual({ rounds, both: 0, neither: 0 });
  }, 60_000);

  it('let the next claim run after one failed', async () => {
    const [a, b] = [0, 1].map(() => {
      const pool = knexFactory({ client: 'pg', connection: db.url, pool: { min: 1, max: 1 } });
      pools.push(pool);
      return createDispatchRepository(pool, { disableAfterMs: 60_000 });
    });
    // A negative LIMIT fails the claim after its turn was taken: ending its statement ends the turn.
    await expect(a.claim(-1, 30_000)).rejects.toThrow(/LIMIT/);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise((resolve) => (timer = setTimeout(resolve, 5_000, 'still waiting for the turn')));
    await expect(Promise.race([b.claim(1, 30_000), waited])).resolves.toEqual(expect.any(Array));
    clearTimeout(timer);
    await expect(a.claim(1, 30_000)).resolves.toEqual(expect.any(Array));
  });

  it('count a lease from when the turn was granted, not from when the claim began waiting', async () => {
    const knex = db.knex as Knex;
    const team = randomTeam();
    const ep = await insertEndpoint(knex, { team_id: team, url: 'http://127.0.0.1:9/' });
    await knex.raw(
      `INSERT INTO webhooks_deliveries (team_id, endpoint_id, event_id, event_type, payload, next_attempt_at)
       VALUES (?, ?, gen_random_uuid(), 'environment.created', '{}', now())`,
      [team, ep.id],
    );
    const pool = knexFactory({ client: 'pg', connection: db.url, pool: { min: 1, max: 1 } });
    pools.push(pool);
    const replica = createDispatchRepository(pool, { disableAfterMs: 60_000 });
    // Another replica holds the turn for a second.
    const holder = await knex.client.acquireConnection();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(hashtext('webhooks_deliveries.claim'), 0)`);
      const claim = replica.claim(10, 30_000);
      await new Promise((r) => setTimeout(r, 1_000));
      await holder.query('COMMIT');
      const claimed = (await claim).filter((d) => d.endpoint_id === ep.id);
      expect(claimed).toHaveLength(1);
      const { rows } = await knex.raw(
        `SELECT extract(epoch FROM leased_until - clock_timestamp()) AS left FROM webhooks_deliveries WHERE id = ?`,
        [claimed[0].id],
      );
      expect(Number(rows[0].left)).toBeGreaterThan(29.5);
    } finally {
      await holder.query('ROLLBACK');
      await knex.client.releaseConnection(holder);
    }
  });
});
