// The request id and trace context cross the PostgreSQL transport (a machine with Node
// only) as they cross RabbitMQ (tests/e2e/webhooks.e2e.test.ts): in the envelope, from an
// outbox write through the relay to a consumer, which handles the event inside both.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createLogger, currentRequestId, requestContext } from '@firewatch/logger';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { currentTraceparent, startTracing, withSpan, type Tracing } from '@firewatch/tracing';
import {
  createEventTransport,
  createOutboxRelay,
  outboxMigration,
  provisionPgEvents,
  writeEvent,
  type EventEnvelope,
  type OutboxRelay,
} from '../src/index.js';

const logger = createLogger({ service: 'events-test', level: 'silent' });
const tag = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const eventsDb = `fw_events_ctx_${tag}`;
const roles = { incidents: `fw_ctx_ic_${tag}`, dispatcher: `fw_ctx_disp_${tag}` };
const queue = `ctx.${tag}`;
const admin = process.env.TEST_DATABASE_URL!;
const asRole = (role: string) => Object.assign(new URL(admin), { username: role, password: 'pw', pathname: `/${eventsDb}` }).toString();

async function adminQuery(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: Object.assign(new URL(admin), { pathname: '/postgres' }).toString() });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

let outbox: TestDatabase;
let relay: OutboxRelay;
let tracing: Tracing;
let collector: http.Server;

beforeAll(async () => {
  // Tracing on, into a collector that takes anything: this test reads the envelopes, not the spans.
  collector = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('{}')));
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  tracing = await startTracing('events-test', {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
  });
  for (const role of Object.values(roles)) await adminQuery(`CREATE ROLE ${role} LOGIN PASSWORD 'pw'`);
  await provisionPgEvents(admin, {
    database: eventsDb,
    roles: Object.values(roles),
    queues: [{ queue, role: roles.dispatcher, bindings: ['incident.*'] }],
  });
  outbox = await createTestDatabase('fw_events_ctx_outbox');
  await outboxMigration.up(outbox.knex);
  relay = createOutboxRelay({
    knex: outbox.knex,
    transport: createEventTransport({ EVENTS_DATABASE_URL: asRole(roles.incidents) }),
    logger,
    pollIntervalMs: 200,
  });
  await relay.start();
});

afterAll(async () => {
  await relay?.stop();
  await tracing?.shutdown();
  await new Promise((r) => collector?.close(r));
  await outbox?.drop();
  await adminQuery(`DROP DATABASE IF EXISTS ${eventsDb} WITH (FORCE)`);
  for (const role of Object.values(roles)) await adminQuery(`DROP ROLE IF EXISTS ${role}`);
});

it('delivers the request id and a traceparent continuing the trace, and handles the event inside them', async () => {
  const got: { envelope: EventEnvelope; requestId?: string; traceparent?: string }[] = [];
  const consumer = createEventTransport({ EVENTS_DATABASE_URL: asRole(roles.dispatcher) }).consume({
    logger,
    queue,
    bindings: [],
    prefetch: 10,
    publishers: { 'incident-config': roles.incidents },
    handler: async (envelope) => {
      got.push({ envelope, requestId: currentRequestId(), traceparent: currentTraceparent() });
    },
  });
  await consumer.start();
  try {
    let written: string | undefined;
    await requestContext.run({ requestId: 'req-pg-1' }, () =>
      withSpan('request', {}, async () => {
        written = currentTraceparent();
        await outbox.knex.transaction((trx) => writeEvent(trx, { type: 'incident.created', team_id: 7, data: { id: 'i1' } }));
      }),
    );
    const deadline = Date.now() + 10_000;
    while (!got.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(got).toHaveLength(1);
    const [{ envelope, requestId, traceparent }] = got;
    const traceOf = (tp?: string) => tp?.split('-')[1];
    expect(envelope.request_id).toBe('req-pg-1');
    expect(requestId).toBe('req-pg-1');
    // The relay's publish span, a child of the write: same trace, another span.
    expect(traceOf(envelope.traceparent)).toBe(traceOf(written));
    expect(envelope.traceparent).not.toBe(written);
    // The handler runs inside the consume span, of the same trace.
    expect(traceOf(traceparent)).toBe(traceOf(written));
    expect(traceparent).not.toBe(envelope.traceparent);
  } finally {
    await consumer.stop();
  }
});
