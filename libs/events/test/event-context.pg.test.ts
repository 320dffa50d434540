// The request id and trace context cross the PostgreSQL transport (a machine with Node
// only) as they cross RabbitMQ (tests/e2e/webhooks.e2e.test.ts): in the envelope, from an
// outbox write through the relay to a consumer, which handles the event inside both.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { currentRequestId, requestContext } from '@firewatch/logger';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { currentTraceparent, startTracing, withSpan, type Tracing } from '@firewatch/tracing';
import {
  createEventTransport,
  createOutboxRelay,
  outboxMigration,
  writeEvent,
  type EventEnvelope,
  type OutboxRelay,
} from '../src/index.js';
import { logger, pgEventsWorld } from './pg-events.support.js';

const world = pgEventsWorld('ctx', ['incidents', 'dispatcher']);
const { tag, roles, asRole } = world;
const queue = `ctx.${tag}`;

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
  await world.create([{ queue, role: roles.dispatcher, bindings: ['incident.*'] }]);
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
  await world.drop();
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
