import knexFactory, { type Knex } from 'knex';
import type { TestDatabase } from '@firewatch/testing';
import { createDispatchRepository } from '../src/data/dispatch.repository.js';
import { createIntakeRepository } from '../src/data/intake.repository.js';
import type { JobOutcome } from '../src/domain/dispatch.types.js';
import { createWebhooksDb, envelope, insertEndpoint, randomTeam } from './support.js';

let db: TestDatabase;
let knex: Knex;

beforeAll(async () => {
  db = await createWebhooksDb();
  knex = db.knex as Knex;
});

afterAll(async () => {
  await db?.drop();
});

/** The SQL `run` sends (knex's query events). */
async function statements(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (q: { sql: string }) => seen.push(q.sql);
  knex.on('query', listener);
  try {
    await run();
  } finally {
    knex.off('query', listener);
  }
  return seen;
}

const ok = (id: string, lease_token: string, n = 1) => ({
  attempt: {
    delivery_id: id,
    attempt_number: n,
    trigger: 'scheduled',
    url: 'http://rx.test/',
    status_code: 200,
    duration_ms: 3,
    response_body: 'it\'s "fine" \\ ü',
    error: null,
  },
  update: {
    id,
    lease_token,
    status: 'delivered',
    next_attempt_at: null,
    delivered_at: new Date().toISOString(),
    failures: 0,
    last_status_code: 200,
    last_error: null,
  },
});

describe('the dispatcher repositories', () => {
  it('store deliveries in event order, once per endpoint and event, in one insert', async () => {
    const team = randomTeam();
    const a = await insertEndpoint(knex, { team_id: team, url: 'http://a.test/' });
    await insertEndpoint(knex, { team_id: team, url: 'http://b.test/', event_types: ['incident.created'] });
    const intake = createIntakeRepository(knex);
    const events = Array.from({ length: 5 }, () => envelope(team, 'environment.created', { name: 'quote " and \\ and ü' }));
    const sql = await statements(async () => expect(await intake.store(events)).toEqual({ count: 5, endpointIds: [a.id] }));
    expect(sql.filter((s) => /insert/i.test(s))).toHaveLength(1);
    const rows = await knex('webhooks_deliveries').where({ endpoint_id: a.id }).orderBy('seq');
    expect(rows.map((r) => r.event_id)).toEqual(events.map((e) => e.id));
    expect(JSON.parse(rows[0].payload)).toEqual({
      event: { id: events[0].id, type: 'environment.created', occurred_at: events[0].occurred_at },
      data: { name: 'quote " and \\ and ü' },
    });
    expect(rows[0].next_attempt_at).not.toBeNull();
    expect(await intake.store(events.slice(0, 2))).toEqual({ count: 0, endpointIds: [] });
  });

  it('store a batch in one statement, joining the subscribing endpoints: every type, the listed type, never a disabled endpoint or an internal type', async () => {
    const [team, other] = [randomTeam(), randomTeam()];
    const all = await insertEndpoint(knex, { team_id: team, url: 'http://all.test/' });
    const listed = await insertEndpoint(knex, {
      team_id: team,
      url: 'http://listed.test/',
      event_types: ['environment.created', 'incident.created'],
    });
    await insertEndpoint(knex, { team_id: team, url: 'http://elsewhere.test/', event_types: ['service.created'] });
    const off = await insertEndpoint(knex, { team_id: team, url: 'http://off.test/' });
    await knex('webhooks_endpoints').where({ id: off.id }).update({ enabled: false });
    const others = await insertEndpoint(knex, { team_id: other, url: 'http://other.test/' });
    const events = [envelope(team), envelope(other), envelope(team, 'user.created'), envelope(team, 'incident.created')];
    const intake = createIntakeRepository(knex);
    const sql = await statements(async () => expect((await intake.store(events)).count).toBe(5));
    expect(sql).toHaveLength(1);
    const rows = await knex('webhooks_deliveries').whereIn('endpoint_id', [all.id, listed.id, off.id, others.id]).orderBy('seq');
    // Event order first, then each event's endpoints in the order they were created.
    expect(rows.map((r) => [r.event_id, r.endpoint_id])).toEqual([
      [events[0].id, all.id],
      [events[0].id, listed.id],
      [events[1].id, others.id],
      [events[3].id, all.id],
      [events[3].id, listed.id],
    ]);
    expect(await intake.store([envelope(team, 'user.created')])).toEqual({ count: 0, endpointIds: [] });
  });

  it('record a job without a failure in one statement: attempts, deliveries, releases, the endpoint recovered', async () => {
    const team = randomTeam();
    const ep = await insertEndpoint(knex, { team_id: team, url: 'http://c.test/' });
    await knex('webhooks_endpoints')
      .where({ id: ep.id })
      .update({ failing_since: new Date(Date.now() - 60_000) });
    await createIntakeRepository(knex).store(Array.from({ length: 3 }, () => envelope(team)));
    const repo = createDispatchRepository(knex, { disableAfterMs: 3_600_000 });
    const claimed = (await repo.claim(100, 30_000)).filter((d) => d.endpoint_id === ep.id);
    expect(claimed).toHaveLength(3);
    const [first, second, third] = claimed;
    const done = [ok(first.id, first.lease_token), ok(second.id, '00000000-0000-4000-8000-000000000000')];
    const outcome: JobOutcome = {
      attempts: done.map((d) => d.attempt),
      updates: done.map((d) => d.update),
      released: [{ id: third.id, lease_token: third.lease_token }],
      endpoint: { id: ep.id, lastSucceeded: true, gone: false, firstFailureAt: null },
    };
    const sql = await statements(() => repo.record(outcome));
    expect(sql).toHaveLength(1);
    const rows = new Map((await knex('webhooks_deliveries').whereIn('id', [first.id, second.id, third.id])).map((r) => [r.id, r]));
    expect(rows.get(first.id)).toMatchObject({ status: 'delivered', attempt_count: 1, leased_until: null, next_attempt_at: null });
    // Its lease is not the job's (taken over): the attempt is kept, the delivery left to its holder.
    expect(rows.get(second.id)).toMatchObject({ status: 'pending', attempt_count: 0, lease_token: second.lease_token });
    expect(rows.get(third.id)).toMatchObject({ attempt_count: 0, leased_until: null, lease_token: null });
    const attempts = await knex('webhooks_delivery_attempts').whereIn('delivery_id', [first.id, second.id, third.id]);
    expect(attempts.map((r) => [r.delivery_id, r.status_code, r.response_body]).sort()).toEqual(
      [
        [first.id, 200, 'it\'s "fine" \\ ü'],
        [second.id, 200, 'it\'s "fine" \\ ü'],
      ].sort(),
    );
    expect((await knex('webhooks_endpoints').where({ id: ep.id }).first()).failing_since).toBeNull();
  });

  it('record a failed job in a transaction that starts the failure streak', async () => {
    const team = randomTeam();
    const ep = await insertEndpoint(knex, { team_id: team, url: 'http://d.test/' });
    await createIntakeRepository(knex).store([envelope(team)]);
    const repo = createDispatchRepository(knex, { disableAfterMs: 3_600_000 });
    const [d] = (await repo.claim(100, 30_000)).filter((r) => r.endpoint_id === ep.id);
    const failedAt = new Date().toISOString();
    await repo.record({
      attempts: [{ ...ok(d.id, d.lease_token).attempt, status_code: 500 }],
      updates: [{ ...ok(d.id, d.lease_token).update, status: 'pending', next_attempt_at: failedAt, delivered_at: null, failures: 1 }],
      released: [],
      endpoint: { id: ep.id, lastSucceeded: false, gone: false, firstFailureAt: failedAt },
    });
    expect(await knex('webhooks_deliveries').where({ id: d.id }).first()).toMatchObject({
      failures: 1,
      attempt_count: 1,
      lease_token: null,
    });
    expect((await knex('webhooks_endpoints').where({ id: ep.id }).first()).failing_since.toISOString()).toBe(failedAt);
  });

  it('run the intake as a prepared statement, and unprepared once a pooler loses it', async () => {
    // One connection, so the statements prepared are the ones this session sees.
    const one = knexFactory({ client: 'pg', connection: db.url, pool: { min: 1, max: 1 } });
    try {
      const team = randomTeam();
      const ep = await insertEndpoint(one, { team_id: team, url: 'http://p.test/' });
      await createIntakeRepository(one).store([envelope(team)]);
      const prepared = (await one.raw(`SELECT statement FROM pg_prepared_statements`)).rows.map((r: { statement: string }) => r.statement);
      expect(prepared.filter((s: string) => /INSERT INTO webhooks_deliveries/.test(s))).toHaveLength(1);
      // As a transaction-mode pooler would: the server forgets it, the client still counts on it.
      await one.raw('DEALLOCATE ALL');
      const later = envelope(team);
      const intake = createIntakeRepository(one);
      expect(await intake.store([later])).toEqual({ count: 1, endpointIds: [ep.id] });
      expect(await intake.store([envelope(team)])).toEqual({ count: 1, endpointIds: [ep.id] });
      expect(await one('webhooks_deliveries').where({ event_id: later.id })).toHaveLength(1);
    } finally {
      await one.destroy();
    }
  });
});
