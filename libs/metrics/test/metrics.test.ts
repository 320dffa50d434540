import type { AddressInfo } from 'node:net';
import express, { Router } from 'express';
import {
  alertRecorder,
  BACKLOG_TIMEOUT_MS,
  captureRouteTemplates,
  counterOf,
  createMetrics,
  deliveryRecorder,
  httpMetrics,
  metricsHandler,
  observeKnexPool,
  observeOutbox,
  relayObserver,
  readSample as sample,
  type Metrics,
} from '../src/index.js';

async function scrape(metrics: Metrics): Promise<string> {
  return (await metrics.scrape()).body;
}

describe('createMetrics', () => {
  it("has Node's process metrics and labels every series with the service", async () => {
    const text = await scrape(createMetrics({ service: 'svc-a' }));
    expect(sample(text, 'process_cpu_user_seconds_total', { service: 'svc-a' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes', { service: 'svc-a' })).toBeGreaterThan(0);
  });

  it('keeps each registry apart, and hands out one metric per name', async () => {
    const a = createMetrics({ service: 'a', defaultMetrics: false });
    const b = createMetrics({ service: 'b', defaultMetrics: false });
    counterOf(a, 'firewatch_things_total', 'Things.', []).inc();
    counterOf(a, 'firewatch_things_total', 'Things.', []).inc(2);
    expect(sample(await scrape(a), 'firewatch_things_total')).toBe(3);
    expect(sample(await scrape(b), 'firewatch_things_total')).toBeUndefined();
    expect(await scrape(b)).not.toContain('process_cpu');
    expect(() => observeOutbox(a, async () => ({ events: 0, oldestAgeSeconds: null }))).not.toThrow();
    expect(() => relayObserver(createMetrics({ service: 'c', defaultMetrics: false }))).not.toThrow();
  });
});

describe('httpMetrics', () => {
  async function request(app: express.Express, paths: string[]): Promise<number[]> {
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const statuses: number[] = [];
      for (const path of paths) {
        const res = await fetch(base + path);
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      // The metrics are recorded when the connection lets go of the response.
      await new Promise((r) => setTimeout(r, 20));
      return statuses;
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }

  it('labels requests with the route template across mounts, errors included, never the raw path', async () => {
    const metrics = createMetrics({ service: 'http', defaultMetrics: false });
    const app = express();
    captureRouteTemplates(app);
    app.use(httpMetrics(metrics));
    app.get('/metrics', metricsHandler(metrics));
    const things = Router();
    things.get('/:id', (req, res) => {
      if (req.params.id === 'boom') throw new Error('boom');
      res.json({ id: req.params.id });
    });
    const v1 = Router();
    v1.use('/things', things);
    app.use('/v1', v1);
    // Errors leave the routers before this answers them: express has restored req.baseUrl by then.
    app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({});
    });

    expect(await request(app, ['/v1/things/1', '/v1/things/2', '/v1/things/boom', '/nowhere/3', '/metrics'])).toEqual([
      200, 200, 500, 404, 200,
    ]);
    const text = await scrape(metrics);
    expect(sample(text, 'firewatch_http_requests_total', { method: 'GET', route: '/v1/things/:id', status: '200' })).toBe(2);
    expect(sample(text, 'firewatch_http_requests_total', { route: '/v1/things/:id', status: '500' })).toBe(1);
    expect(sample(text, 'firewatch_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(text, 'firewatch_http_requests_total', { route: '/metrics' })).toBe(1);
    expect(sample(text, 'firewatch_http_request_duration_seconds_count', { route: '/v1/things/:id', status_class: '2xx' })).toBe(2);
    expect(sample(text, 'firewatch_http_request_duration_seconds_bucket', { route: '/v1/things/:id', status_class: '2xx', le: '10' })).toBe(
      2,
    );
    expect(text).not.toMatch(/things\/1/);
  });

  it('uses the route a routeOf gives', async () => {
    const metrics = createMetrics({ service: 'http', defaultMetrics: false });
    const app = express().use(httpMetrics(metrics, { routeOf: (req) => (req.path.startsWith('/a/') ? '/a' : 'other') }));
    app.use((_req, res) => {
      res.status(204).end();
    });
    await request(app, ['/a/1', '/a/2', '/b']);
    const text = await scrape(metrics);
    expect(sample(text, 'firewatch_http_requests_total', { route: '/a', status: '204' })).toBe(2);
    expect(sample(text, 'firewatch_http_requests_total', { route: 'other' })).toBe(1);
  });
});

describe('gauges read on scrape', () => {
  it("reports each pool's use by name, and nothing for a destroyed one", async () => {
    const metrics = createMetrics({ service: 'db', defaultMetrics: false });
    const pool = { numUsed: () => 3, numFree: () => 2, numPendingAcquires: () => 7, max: 10 };
    const main = { client: { pool: pool as typeof pool | undefined } };
    observeKnexPool(metrics, main);
    observeKnexPool(metrics, { client: { pool: { ...pool, numUsed: () => 1 } } }, 'replica');
    let text = await scrape(metrics);
    expect(sample(text, 'firewatch_db_pool_connections', { pool: 'main', state: 'used' })).toBe(3);
    expect(sample(text, 'firewatch_db_pool_connections', { pool: 'main', state: 'idle' })).toBe(2);
    expect(sample(text, 'firewatch_db_pool_connections', { pool: 'replica', state: 'used' })).toBe(1);
    expect(sample(text, 'firewatch_db_pool_pending_acquires', { pool: 'main' })).toBe(7);
    expect(sample(text, 'firewatch_db_pool_max_connections', { pool: 'main' })).toBe(10);
    main.client.pool = undefined;
    text = await scrape(metrics);
    expect(sample(text, 'firewatch_db_pool_connections', { pool: 'main' })).toBeUndefined();
    expect(sample(text, 'firewatch_db_pool_connections', { pool: 'replica', state: 'used' })).toBe(1);
  });

  it('queries the outbox once per scrape, and reports NaN (unknown) while the query fails', async () => {
    const metrics = createMetrics({ service: 'outbox', defaultMetrics: false });
    let calls = 0;
    let failing = false;
    observeOutbox(metrics, async () => {
      calls += 1;
      if (failing) throw new Error('database down');
      return { events: 42, oldestAgeSeconds: 12.5 };
    });
    let text = await scrape(metrics);
    expect(calls).toBe(1);
    expect(sample(text, 'firewatch_outbox_backlog_events')).toBe(42);
    expect(sample(text, 'firewatch_outbox_oldest_event_age_seconds')).toBe(12.5);
    failing = true;
    await new Promise((r) => setTimeout(r, 1100));
    text = await scrape(metrics);
    expect(calls).toBe(2);
    expect(sample(text, 'firewatch_outbox_backlog_events')).toBeNaN();
    expect(sample(text, 'firewatch_outbox_oldest_event_age_seconds')).toBeNaN();
  });
});

describe('a backlog query that does not answer', () => {
  it('reads as unknown after BACKLOG_TIMEOUT_MS instead of holding up the scrape', async () => {
    const metrics = createMetrics({ service: 'outbox', defaultMetrics: false });
    observeOutbox(metrics, () => new Promise(() => undefined));
    const started = Date.now();
    const text = await scrape(metrics);
    expect(Date.now() - started).toBeGreaterThanOrEqual(BACKLOG_TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(BACKLOG_TIMEOUT_MS + 1000);
    expect(sample(text, 'firewatch_outbox_backlog_events')).toBeNaN();
  });
});

describe('recorders', () => {
  it('count relay batches, delivery attempts and alerts with their labels', async () => {
    const metrics = createMetrics({ service: 'rec', defaultMetrics: false });
    relayObserver(metrics).published(5, 0.02);
    const deliveries = deliveryRecorder(metrics);
    deliveries.attempt('delivered', 204, 0.1);
    deliveries.attempt('retrying', null, 2);
    deliveries.attempt('retrying', 503, 0.3);
    alertRecorder(metrics).ingested('alertmanager', 'created');
    const text = await scrape(metrics);
    expect(sample(text, 'firewatch_outbox_published_events_total')).toBe(5);
    expect(sample(text, 'firewatch_outbox_publish_duration_seconds_count')).toBe(1);
    expect(sample(text, 'firewatch_webhook_delivery_attempts_total', { outcome: 'delivered', status_class: '2xx' })).toBe(1);
    expect(sample(text, 'firewatch_webhook_delivery_attempts_total', { outcome: 'retrying', status_class: 'none' })).toBe(1);
    expect(sample(text, 'firewatch_webhook_delivery_attempts_total', { outcome: 'retrying', status_class: '5xx' })).toBe(1);
    expect(sample(text, 'firewatch_webhook_delivery_attempt_duration_seconds_count', { outcome: 'retrying' })).toBe(2);
    expect(sample(text, 'firewatch_alerts_ingested_total', { source: 'alertmanager', outcome: 'created' })).toBe(1);
  });
});
