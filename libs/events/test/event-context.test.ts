import { PassThrough } from 'node:stream';
import { createLogger, requestContext } from '@firewatch/logger';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { inEventContext } from '../src/event-context.js';
import { outboxEnvelope } from '../src/outbox.publisher.js';
import { isEventEnvelope, outboxMigration, writeEvent, type EventEnvelope } from '../src/index.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('fw_events_context');
  await outboxMigration.up(db.knex);
});
afterAll(async () => {
  await db?.drop();
});

const input = { type: 'environment.created', team_id: 7, data: { id: '1', type: 'environments', attributes: {} } };
const stored = async (id: string) => (await db.knex('outbox').where({ id }).first()).payload;

describe('the request id in events', () => {
  it('is written into the envelope of every event a request causes, and only then', async () => {
    const caused = await requestContext.run({ requestId: 'req-42' }, () => writeEvent(db.knex, input));
    expect(caused.request_id).toBe('req-42');
    expect((await stored(caused.id)).request_id).toBe('req-42');

    const ofAJob = await writeEvent(db.knex, input);
    expect('request_id' in ofAJob).toBe(false);
    // Tracing is off here: no trace context either.
    expect('traceparent' in caused).toBe(false);
  });

  it('travels on the bus in the envelope, and envelopes without it stay valid', () => {
    const published = JSON.parse(JSON.stringify(outboxEnvelope({ ...input, id: 'e1', occurred_at: 'now', request_id: 'req-42' })));
    expect(published).toEqual({ id: 'e1', type: input.type, occurred_at: 'now', team_id: 7, data: input.data, request_id: 'req-42' });
    const old = JSON.parse(JSON.stringify(outboxEnvelope({ ...input, id: 'e2', occurred_at: 'now' })));
    expect(Object.keys(old)).toEqual(['id', 'type', 'occurred_at', 'team_id', 'data']);
    expect(isEventEnvelope(old)).toBe(true);
  });

  it("names the consumer's log lines and the events its handler writes", async () => {
    const stream = new PassThrough();
    const lines: Record<string, unknown>[] = [];
    stream.on('data', (chunk: Buffer) =>
      lines.push(
        ...chunk
          .toString()
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l)),
      ),
    );
    const logger = createLogger({ service: 'test', stream });
    let written: EventEnvelope | undefined;
    const handle = inEventContext('q', async (envelope) => {
      logger.info('handled', { event_id: envelope.id });
      written = await writeEvent(db.knex, input);
    });
    await handle({ id: 'e3', type: input.type, occurred_at: 'now', team_id: 7, data: null, request_id: 'req-43' });
    await handle({ id: 'e4', type: input.type, occurred_at: 'now', team_id: 7, data: null });
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.event_id, l.request_id])).toEqual([
      ['e3', 'req-43'],
      ['e4', undefined],
    ]);
    expect(written!.request_id).toBeUndefined();
    await handle({ id: 'e5', type: input.type, occurred_at: 'now', team_id: 7, data: null, request_id: 'req-44' });
    expect(written!.request_id).toBe('req-44');
  });
});
