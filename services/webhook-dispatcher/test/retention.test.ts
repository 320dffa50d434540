import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { TestDatabase } from '@firewatch/testing';
import { createWebhooksDb, insertEndpoint, randomTeam, startDispatcher, uniqueQueue, publisher } from './support.js';

let db: TestDatabase;
let knex: Knex;

beforeAll(async () => {
  db = await createWebhooksDb();
  knex = db.knex as Knex;
});
afterAll(async () => {
  await db?.drop();
});

const DAY = 86_400_000;

async function delivery(endpointId: string, team: number, ageDays: number, extra: Record<string, unknown> = {}) {
  const createdAt = new Date(Date.now() - ageDays * DAY);
  const [row] = await knex('webhooks_deliveries')
    .insert({
      team_id: team,
      endpoint_id: endpointId,
      event_id: randomUUID(),
      event_type: 'environment.created',
      payload: '{}',
      status: 'delivered',
      created_at: createdAt,
      ...extra,
    })
    .returning('id');
  await knex('webhooks_delivery_attempts').insert({
    delivery_id: row.id,
    attempt_number: 1,
    trigger: 'scheduled',
    url: 'https://x.example',
    status_code: 200,
    duration_ms: 1,
    created_at: createdAt,
  });
  return row.id as string;
}

describe('retention of deliveries', () => {
  it('deletes deliveries and attempts older than WEBHOOK_RETENTION_DAYS at start and periodically, keeps newer and in-flight ones', async () => {
    const team = randomTeam();
    const ep = await insertEndpoint(knex, { team_id: team, url: 'https://hooks.example.com/' });
    const old = await Promise.all([40, 31, 400].map((age) => delivery(ep.id, team, age)));
    const kept = await Promise.all([29, 1, 0].map((age) => delivery(ep.id, team, age)));
    const leased = await delivery(ep.id, team, 45, {
      status: 'pending',
      leased_until: new Date(Date.now() + 60_000),
      lease_token: randomUUID(),
    });

    const queue = uniqueQueue();
    const dispatcher = startDispatcher(knex, queue, { WEBHOOK_RETENTION_DAYS: '30', WEBHOOK_PRUNE_INTERVAL_MS: '1000' });
    await dispatcher.start();
    try {
      await dispatcher.retention.runNow();
      const ids = await knex('webhooks_deliveries').where({ endpoint_id: ep.id }).pluck('id');
      expect(new Set(ids)).toEqual(new Set([...kept, leased]));
      const attempts = await knex('webhooks_delivery_attempts')
        .whereIn('delivery_id', [...old, ...kept])
        .pluck('delivery_id');
      expect(new Set(attempts)).toEqual(new Set(kept));

      // The lease runs out: the next periodic run takes it.
      await knex('webhooks_deliveries')
        .where({ id: leased })
        .update({ leased_until: new Date(Date.now() - 1000) });
      const runs = dispatcher.retention.stats.runs;
      const deadline = Date.now() + 5000;
      while (dispatcher.retention.stats.runs === runs && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await dispatcher.retention.runNow();
      expect(await knex('webhooks_deliveries').where({ id: leased }).first()).toBeUndefined();
      expect(dispatcher.retention.stats.deleted).toBe(4);
    } finally {
      await dispatcher.stop();
      await (await publisher(queue)).close();
    }
  });
});
