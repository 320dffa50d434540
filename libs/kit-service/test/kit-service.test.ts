import { Router } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import { PRINCIPAL_HEADER } from '@firewatch/auth';
import type { Migrations } from '@firewatch/db';
import { outboxMigration, writeEvent, type OutboxRelay } from '@firewatch/events';
import { createLogger } from '@firewatch/logger';
import { readSample } from '@firewatch/metrics';
import { createResourceRegistry, defineResource, type EventWriter } from '@firewatch/resource-kit';
import { createTestDatabase, listen, signAsGateway, TEST_PRINCIPAL_KEYS, testPrincipal, type TestDatabase } from '@firewatch/testing';
import { createKitApp, startKitService } from '../src/index.js';

const notes = defineResource<{ prefix: string }>({
  type: 'notes',
  path: '/v1/notes',
  table: 'notes',
  event: 'note',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ title: z.string().min(1) }),
  update: z.strictObject({ title: z.string().min(1) }).partial(),
  attributes: ['title'],
  hooks: { toColumns: (attributes, { deps }) => ({ ...attributes, title: `${deps.prefix}${attributes.title as string}` }) },
});
const registry = createResourceRegistry<{ prefix: string }>([notes]);

const migrations: Migrations = {
  '0000-outbox': outboxMigration,
  '0001-notes': {
    up: (knex) =>
      knex.schema.createTable('notes', (t) => {
        t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
        t.integer('team_id').notNullable();
        t.text('title').notNullable();
        t.timestamps(true, true);
      }),
    down: (knex) => knex.schema.dropTable('notes'),
  },
};

const logger = createLogger({ service: 'kit-service-test', level: 'silent' });
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('fw_kit_test');
});
afterAll(() => db?.drop());

function config() {
  return {
    DATABASE_URL: db.url,
    AMQP_URL: process.env.TEST_AMQP_URL!,
    DB_POOL_MAX: 2,
    PRINCIPAL_PUBLIC_KEYS: TEST_PRINCIPAL_KEYS.publicKeys,
    BODY_LIMIT: '1kb',
  };
}

async function call(url: string, audience: string, method: string, path: string, body?: unknown) {
  const headers = {
    [PRINCIPAL_HEADER]: await signAsGateway(testPrincipal(), audience, method, path),
    'content-type': 'application/vnd.api+json',
  };
  return fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

describe('startKitService', () => {
  it("migrates, runs the service's start before the relay, serves its app with the shell's checks, and stops in reverse", async () => {
    const seen: Record<string, unknown> = {};
    const events: string[] = [];
    const capture: EventWriter = async (_tx, event) => {
      events.push(event.type);
    };
    let opened: { knex: Knex; relay: OutboxRelay } | undefined;
    const started = await startKitService(
      {
        name: 'kit-test',
        migrations,
        async start({ knex, relay }) {
          opened = { knex, relay };
          seen.migrated = await knex.schema.hasTable('notes');
          seen.relayConnectedAtStart = relay.stats.connected;
          return {
            app: (shell) =>
              createKitApp(shell, {
                registry,
                deps: { prefix: '> ' },
                openapi: { openapi: '3.1.0' },
                writeEvent: capture,
                routersBefore: ([module]) => [
                  Router().get('/v1/notes/first', async (_req, res) => {
                    res.json({ type: module.definition.type });
                  }),
                ],
              }),
            readiness: { extra: async () => undefined },
            async stop() {
              seen.relayConnectedAtStop = relay.stats.connected;
              seen.databaseAtStop = (await knex.raw('select 1 as one')).rows[0].one;
            },
          };
        },
      },
      { config: config(), logger },
    );
    const server = await listen(started.app);
    try {
      expect(seen).toEqual({ migrated: true, relayConnectedAtStart: false });
      const ready = await fetch(`${server.url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', checks: { database: 'ok', broker: 'ok', extra: 'ok' } }]);
      expect(await (await fetch(`${server.url}/openapi.json`)).json()).toEqual({ openapi: '3.1.0' });

      const created = await call(server.url, 'kit-test', 'POST', '/v1/notes', { data: { type: 'notes', attributes: { title: 'a' } } });
      expect([created.status, ((await created.json()) as { data: { attributes: { title: string } } }).data.attributes.title]).toEqual([
        201,
        '> a',
      ]);
      expect(events).toEqual(['note.created']);
      // The hand-written router comes before the kit's `/v1/notes/:id`.
      expect(await (await call(server.url, 'kit-test', 'GET', '/v1/notes/first')).json()).toEqual({ type: 'notes' });
      // The verifier's audience is the service's name; BODY_LIMIT bounds bodies.
      expect((await call(server.url, 'other', 'GET', '/v1/notes')).status).toBe(401);
      const big = await call(server.url, 'kit-test', 'POST', '/v1/notes', {
        data: { type: 'notes', attributes: { title: 'x'.repeat(2000) } },
      });
      expect(big.status).toBe(413);
    } finally {
      await server.close();
      await started.stop();
    }
    expect(seen).toMatchObject({ relayConnectedAtStop: true, databaseAtStop: 1 });
    expect(opened!.relay.stats.connected).toBe(false);
    await expect(opened!.knex.raw('select 1')).rejects.toThrow();
  });

  it("lets the service's check replace the shell's of the same name", async () => {
    const started = await startKitService(
      {
        name: 'kit-test',
        migrations,
        async start() {
          return {
            app: (shell) => createKitApp(shell, { registry, deps: { prefix: '' }, openapi: {} }),
            readiness: {
              broker: async () => {
                throw new Error('the consumer is down');
              },
            },
          };
        },
      },
      { config: config(), logger },
    );
    const server = await listen(started.app);
    try {
      const ready = await fetch(`${server.url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([503, { status: 'not_ready', checks: { database: 'ok', broker: 'failing' } }]);
    } finally {
      await server.close();
      await started.stop();
    }
  });

  it('serves /metrics without a principal: requests by route template, the pool, the outbox and the relay', async () => {
    let knex: Knex | undefined;
    const started = await startKitService(
      {
        name: 'kit-metrics-test',
        migrations,
        async start(context) {
          knex = context.knex;
          // `note.*` is no event of the catalog: the notes' events stay out of the outbox.
          return {
            app: (shell) => createKitApp(shell, { registry, deps: { prefix: '' }, openapi: {}, writeEvent: async () => undefined }),
          };
        },
      },
      { config: config(), logger },
    );
    const server = await listen(started.app);
    try {
      const created = await call(server.url, 'kit-metrics-test', 'POST', '/v1/notes', {
        data: { type: 'notes', attributes: { title: 'a' } },
      });
      const { data } = (await created.json()) as { data: { id: string } };
      expect((await call(server.url, 'kit-metrics-test', 'GET', `/v1/notes/${data.id}`)).status).toBe(200);
      expect((await call(server.url, 'kit-metrics-test', 'GET', '/v1/notes/00000000-0000-4000-8000-000000000000')).status).toBe(404);
      // An event leaves through the outbox relay, as the broker confirms it; the backlog is
      // read at most once a second, so it shows the emptied outbox a little later.
      await writeEvent(knex!, { type: 'service.updated', team_id: 1, data: { id: 'metrics-test' } });
      let text = '';
      const drained = () =>
        readSample(text, 'firewatch_outbox_published_events_total') === 1 && readSample(text, 'firewatch_outbox_backlog_events') === 0;
      for (let tries = 0; tries < 50 && !drained(); tries += 1) {
        await new Promise((r) => setTimeout(r, 100));
        text = await (await fetch(`${server.url}/metrics`)).text();
      }
      const res = await fetch(`${server.url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      text = await res.text();
      const labels = { service: 'kit-metrics-test', method: 'GET', route: '/v1/notes/:id' };
      expect(readSample(text, 'firewatch_http_requests_total', { ...labels, status: '200' })).toBe(1);
      expect(readSample(text, 'firewatch_http_requests_total', { ...labels, status: '404' })).toBe(1);
      expect(readSample(text, 'firewatch_http_requests_total', { method: 'POST', route: '/v1/notes', status: '201' })).toBe(1);
      expect(text).not.toContain(data.id);
      expect(readSample(text, 'firewatch_db_pool_max_connections', { pool: 'main' })).toBe(2);
      expect(readSample(text, 'firewatch_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
      expect(readSample(text, 'firewatch_outbox_backlog_events')).toBe(0);
      expect(readSample(text, 'firewatch_outbox_published_events_total')).toBe(1);
      expect(readSample(text, 'firewatch_outbox_publish_duration_seconds_count')).toBe(1);
      expect(readSample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    } finally {
      await server.close();
      await started.stop();
    }
  });
});
