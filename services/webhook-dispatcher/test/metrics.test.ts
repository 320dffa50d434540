import type { Knex } from 'knex';
import { createMetrics, deliveryRecorder, readSample } from '@firewatch/metrics';
import { listen, type TestDatabase } from '@firewatch/testing';
import { createHealthApp } from '../src/http/health.app.js';
import {
  createWebhooksDb,
  envelope,
  insertEndpoint,
  publisher,
  randomTeam,
  startDispatcher,
  startReceiver,
  uniqueQueue,
  waitUntil,
} from './support.js';

let db: TestDatabase;
const queue = uniqueQueue();
let pub: Awaited<ReturnType<typeof publisher>>;
let dispatcher: ReturnType<typeof startDispatcher>;
const metrics = createMetrics({ service: 'webhook-dispatcher', defaultMetrics: false });

beforeAll(async () => {
  db = await createWebhooksDb();
  dispatcher = startDispatcher(db.knex as Knex, queue, {}, deliveryRecorder(metrics));
  await dispatcher.start();
  pub = await publisher(queue);
});

afterAll(async () => {
  await dispatcher?.stop();
  await pub?.close();
  await db?.drop();
});

it("counts each delivery attempt by outcome and status class, served at the health app's /metrics", async () => {
  const team = randomTeam();
  const rx = await startReceiver((_r, n) => ({ status: n === 1 ? 503 : 204 }));
  await insertEndpoint(db.knex as Knex, { team_id: team, url: rx.url });
  const server = await listen(createHealthApp({}, metrics));
  try {
    await pub.send([envelope(team)]);
    const scrape = async () => (await fetch(`${server.url}/metrics`)).text();
    await waitUntil(
      async () => readSample(await scrape(), 'firewatch_webhook_delivery_attempts_total', { outcome: 'delivered' }) === 1,
      10_000,
      'the second attempt counted',
    );
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const text = await scrape();
    expect(readSample(text, 'firewatch_webhook_delivery_attempts_total', { outcome: 'retrying', status_class: '5xx' })).toBe(1);
    expect(readSample(text, 'firewatch_webhook_delivery_attempts_total', { outcome: 'delivered', status_class: '2xx' })).toBe(1);
    expect(readSample(text, 'firewatch_webhook_delivery_attempts_total', { outcome: 'failed' })).toBeUndefined();
    expect(readSample(text, 'firewatch_webhook_delivery_attempt_duration_seconds_count', { outcome: 'delivered' })).toBe(1);
    expect(readSample(text, 'firewatch_http_requests_total', { route: '/healthz', status: '200' })).toBe(1);
  } finally {
    await server.close();
    await rx.close();
  }
});
