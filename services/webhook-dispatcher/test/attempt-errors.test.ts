import type { Knex } from 'knex';
import type { TestDatabase } from '@firewatch/testing';
import { createWebhooksDb, envelope, insertEndpoint, publisher, randomTeam, startDispatcher, uniqueQueue, waitUntil } from './support.js';

let db: TestDatabase;
let knex: Knex;
const queue = uniqueQueue();
let pub: Awaited<ReturnType<typeof publisher>>;
let dispatcher: ReturnType<typeof startDispatcher>;

beforeAll(async () => {
  db = await createWebhooksDb();
  knex = db.knex as Knex;
  // No allowed networks: loopback and private addresses are refused, as in production.
  dispatcher = startDispatcher(knex, queue, { WEBHOOK_ALLOWED_NETWORKS: '' });
  await dispatcher.start();
  pub = await publisher(queue);
});

afterAll(async () => {
  await dispatcher?.stop();
  await pub?.close();
  await db?.drop();
});

describe('attempt errors', () => {
  it('store a generic text for a host resolving to a private address, without its name or address', async () => {
    const team = randomTeam();
    const endpoints = await Promise.all(
      ['http://localhost:9/hook', 'http://10.1.2.3/hook', 'http://[::1]/hook'].map((url) => insertEndpoint(knex, { team_id: team, url })),
    );
    await pub.send([envelope(team)]);
    const attemptsOf = () =>
      knex('webhooks_delivery_attempts')
        .join('webhooks_deliveries', 'webhooks_deliveries.id', 'webhooks_delivery_attempts.delivery_id')
        .whereIn(
          'endpoint_id',
          endpoints.map((e) => e.id),
        )
        .select('webhooks_delivery_attempts.error', 'webhooks_deliveries.last_error');
    await waitUntil(async () => (await attemptsOf()).length >= 3, 10_000, 'three attempts');
    const rows = await attemptsOf();
    expect(rows.map((r) => [r.error, r.last_error])).toEqual(
      Array(rows.length).fill(['destination not allowed', 'destination not allowed']),
    );
    expect(JSON.stringify(rows)).not.toMatch(/localhost|127\.0\.0\.1|10\.1\.2\.3|::1|loopback|private/);
  });
});
