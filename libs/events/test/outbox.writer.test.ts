import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { EVENT_TYPES, isEventType, onOutboxCommit, outboxMigration, writeEvent, writeEvents, writeEventsIf } from '../src/index.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('fw_events_writer');
  await outboxMigration.up(db.knex);
});
afterAll(async () => {
  await db?.drop();
});

describe('event catalog', () => {
  it('holds the incident lifecycle, incident events and CRUD events of every resource', () => {
    expect(EVENT_TYPES).toEqual(
      expect.arrayContaining([
        'incident.created',
        'incident.in_triage',
        'incident.mitigated',
        'incident.resolved',
        'incident.cancelled',
        'incident.restarted',
        'incident.deleted',
        'incident_event.updated',
        'environment.created',
        'schedule_rotation_active_day.deleted',
        'webhooks_endpoint.updated',
        'api_key.deleted',
        'alert_retrigger_rule.created',
        'form_set.created',
        'alert_urgency.deleted',
        'communications_stage.updated',
      ]),
    );
    // 8 incident types + shift.started + 2 heartbeat types + 7 alert types + 38 resources × 3 (users' contact methods are internal).
    expect(EVENT_TYPES).toContain('shift.started');
    expect(EVENT_TYPES).toContain('heartbeat.expired');
    expect(EVENT_TYPES).toContain('alert.acknowledged');
    expect(EVENT_TYPES).toContain('alert.retriggered');
    expect(EVENT_TYPES).toContain('alert.notification');
    expect(EVENT_TYPES).toEqual(expect.arrayContaining(['alert_route.created', 'alert_routing_rule.deleted']));
    expect(EVENT_TYPES).toEqual(expect.arrayContaining(['alert_event.created', 'alert_event.deleted']));
    expect(EVENT_TYPES).toHaveLength(8 + 1 + 2 + 7 + 38 * 3);
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
    expect(Object.isFrozen(EVENT_TYPES)).toBe(true);
  });

  it('recognises only catalogued types', () => {
    expect(isEventType('dashboard_panel.created')).toBe(true);
    expect(isEventType('incident.mitigated')).toBe(true);
    expect(isEventType('environment.mitigated')).toBe(false);
    expect(isEventType('incident')).toBe(false);
    expect(isEventType(42)).toBe(false);
  });
});

describe('writeEvent', () => {
  it('stores the full envelope with a fresh uuid and the given time', async () => {
    const at = new Date('2025-03-04T05:06:07.000Z');
    const data = { id: 'a1', type: 'environments', attributes: { name: 'prod' } };
    const env = await db.knex.transaction((trx) => writeEvent(trx, { type: 'environment.created', team_id: 7, data, occurred_at: at }));
    expect(env).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'environment.created',
      occurred_at: at.toISOString(),
      team_id: 7,
      data,
    });
    const row = await db.knex('outbox').where({ id: env.id }).first();
    expect(row).toMatchObject({ type: 'environment.created', team_id: 7, attempts: 0, last_error: null, payload: env });
    expect(row.available_at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('throws on a type outside the catalog and writes nothing', async () => {
    const before = await db.knex('outbox').count<{ count: string }[]>('* as count');
    await expect(db.knex.transaction((trx) => writeEvent(trx, { type: 'incident.exploded', team_id: 1, data: {} }))).rejects.toThrow(
      /Unknown event type "incident.exploded"/,
    );
    await expect(
      writeEvents(db.knex, [
        { type: 'service.created', team_id: 1, data: {} },
        { type: 'nope', team_id: 1, data: {} },
      ]),
    ).rejects.toThrow(/Unknown event type/);
    await expect(writeEvent(db.knex, { type: 'service.created', team_id: 1.5, data: {} })).rejects.toThrow(/integer team_id/);
    const after = await db.knex('outbox').count<{ count: string }[]>('* as count');
    expect(after[0].count).toBe(before[0].count);
  });

  it('gives a batch increasing seq in input order', async () => {
    const envs = await writeEvents(
      db.knex,
      ['service.created', 'service.updated', 'service.deleted'].map((type) => ({ type, team_id: 2, data: null })),
    );
    const rows = await db
      .knex('outbox')
      .whereIn(
        'id',
        envs.map((e) => e.id),
      )
      .orderBy('seq');
    expect(rows.map((r) => r.id)).toEqual(envs.map((e) => e.id));
    expect(await writeEvents(db.knex, [])).toEqual([]);
  });

  it('stores null for missing data, so the envelope always carries the key', async () => {
    const env = await writeEvent(db.knex, { type: 'override_shift.deleted', team_id: 1, data: undefined });
    expect(env.data).toBeNull();
    const row = await db.knex('outbox').where({ id: env.id }).first();
    expect(Object.keys(row.payload)).toContain('data');
  });

  it('writes batches beyond one INSERT atomically and in order', async () => {
    const inputs = Array.from({ length: 2500 }, (_, i) => ({ type: 'functionality.updated', team_id: 4, data: { i } }));
    await db.knex
      .transaction(async (trx) => {
        await writeEvents(trx, inputs);
        await trx.rollback();
      })
      .catch(() => undefined);
    // int8 as a number: @firewatch/events imports @firewatch/db, whose type parsers every service has.
    expect(await db.knex('outbox').where({ team_id: 4 }).count<{ n: number }[]>('* as n')).toEqual([{ n: 0 }]);
    const envs = await db.knex.transaction((trx) => writeEvents(trx, inputs));
    const rows = await db.knex('outbox').where({ team_id: 4 }).orderBy('seq').select('id');
    expect(rows.map((r) => r.id)).toEqual(envs.map((e) => e.id));
  });

  it("sends the caller's writes alongside in the outbox row's statement: one round trip, all or nothing", async () => {
    await db.knex.raw('create table if not exists alongside_rows (id integer primary key, note text)');
    await db.knex('alongside_rows').insert({ id: 1, note: 'before' });
    const sent: string[] = [];
    const count = (q: { sql: string }) => sent.push(q.sql);
    db.knex.on('query', count);
    try {
      await db.knex.transaction((trx) =>
        writeEvent(trx, { type: 'environment.updated', team_id: 9, data: { id: 'alongside' } }, [
          trx('alongside_rows').insert({ id: 2, note: 'new' }),
          trx('alongside_rows').where({ id: 1 }).update({ note: 'after' }),
        ]),
      );
    } finally {
      db.knex.removeListener('query', count);
    }
    expect(sent.filter((s) => !/^(BEGIN|COMMIT)/.test(s))).toHaveLength(1);
    expect(await db.knex('alongside_rows').orderBy('id')).toEqual([
      { id: 1, note: 'after' },
      { id: 2, note: 'new' },
    ]);
    expect(await db.knex('outbox').whereRaw(`payload->'data'->>'id' = 'alongside'`)).toHaveLength(1);
    // A failing write alongside takes the outbox row with it.
    await expect(
      db.knex.transaction((trx) =>
        writeEvent(trx, { type: 'environment.updated', team_id: 9, data: { id: 'refused' } }, [trx('alongside_rows').insert({ id: 2 })]),
      ),
    ).rejects.toThrow(/duplicate key/);
    expect(await db.knex('outbox').whereRaw(`payload->'data'->>'id' = 'refused'`)).toHaveLength(0);
  });

  it('still runs the writes alongside when there is no event to write', async () => {
    await db.knex.raw('create table if not exists alongside_rows (id integer primary key, note text)');
    await db.knex.transaction((trx) => writeEvents(trx, [], [trx('alongside_rows').insert({ id: 30, note: 'no event' })]));
    expect(await db.knex('alongside_rows').where({ id: 30 })).toEqual([{ id: 30, note: 'no event' }]);
  });

  it("wakes this process's relays once the write commits, never before nor when it fails, and sends NOTIFY only where no relay runs", async () => {
    const listener = new pg.Client((db.knex.client as { config: { connection: pg.ClientConfig } }).config.connection);
    await listener.connect();
    const woken: string[] = [];
    const unsubscribe = onOutboxCommit(() => woken.push('woken'));
    try {
      await listener.query('LISTEN firewatch_outbox');
      const heard: string[] = [];
      listener.on('notification', (n) => heard.push(n.channel));
      await expect(
        db.knex.transaction(async (trx) => {
          await writeEvent(trx, { type: 'environment.created', team_id: 5, data: {} });
          throw new Error('the write failed after its event');
        }),
      ).rejects.toThrow('the write failed');
      await new Promise((r) => setTimeout(r, 20));
      expect(woken).toEqual([]);
      await db.knex.transaction(async (trx) => {
        await writeEvents(trx, [
          { type: 'environment.created', team_id: 5, data: {} },
          { type: 'environment.updated', team_id: 5, data: {} },
        ]);
        // In a savepoint too: only the outermost transaction's commit wakes.
        await trx.transaction((sp) => writeEvent(sp, { type: 'environment.updated', team_id: 5, data: {} }));
        await new Promise((r) => setTimeout(r, 20));
        expect(woken).toEqual([]);
      });
      await new Promise((r) => setImmediate(r));
      // One commit, one wake, however many rows and savepoints it wrote.
      expect(woken).toEqual(['woken']);
      await writeEvent(db.knex, { type: 'environment.created', team_id: 5, data: {} });
      await new Promise((r) => setImmediate(r));
      expect(woken).toEqual(['woken', 'woken']);
      await new Promise((r) => setTimeout(r, 200));
      // No NOTIFY: PostgreSQL commits notifying transactions one at a time (outbox-commits.ts).
      expect(heard).toEqual([]);
      // A process that runs no relay (a CLI) tells the others by NOTIFY on commit, once.
      unsubscribe();
      await db.knex.transaction((trx) => writeEvent(trx, { type: 'environment.created', team_id: 5, data: {} }));
      for (let i = 0; i < 50 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(heard).toEqual(['firewatch_outbox']);
    } finally {
      unsubscribe();
      await listener.end();
    }
  });
});

describe('writeEventsIf', () => {
  it('writes the events and the guarded writes alongside in one statement only when the guard returns a row', async () => {
    await db.knex.raw('create table if not exists guarded_rows (id integer primary key, version integer, note text)');
    await db.knex('guarded_rows').insert({ id: 1, version: 1, note: 'first' });
    const write = (version: number, note: string) =>
      writeEventsIf(
        db.knex,
        [{ type: 'environment.updated', team_id: 11, data: { note } }],
        db.knex.raw('update guarded_rows set version = version + 1, note = ? where id = 1 and version = ? returning id', [note, version]),
        [db.knex.raw('insert into alongside_rows (id, note) select id + 100 + ?::integer, ? from guard', [version, note])],
      );
    await db.knex.raw('create table if not exists alongside_rows (id integer primary key, note text)');
    const sent: string[] = [];
    const count = (q: { sql: string }) => sent.push(q.sql);
    db.knex.on('query', count);
    let envelopes;
    try {
      envelopes = await write(1, 'second');
    } finally {
      db.knex.removeListener('query', count);
    }
    expect(sent).toHaveLength(1);
    expect(envelopes).toHaveLength(1);
    expect(await db.knex('guarded_rows').where({ id: 1 }).first()).toEqual({ id: 1, version: 2, note: 'second' });
    expect(await db.knex('alongside_rows').where({ id: 102 })).toEqual([{ id: 102, note: 'second' }]);
    const stored = await db.knex('outbox').where({ id: envelopes![0].id });
    expect(stored).toHaveLength(1);
    // A guard that matches nothing (the row moved on): no event, nothing alongside.
    expect(await write(1, 'stale')).toBeNull();
    expect(await db.knex('guarded_rows').where({ id: 1 }).first()).toEqual({ id: 1, version: 2, note: 'second' });
    expect(await db.knex('alongside_rows').where({ note: 'stale' })).toHaveLength(0);
    expect(await db.knex('outbox').whereRaw(`payload->'data'->>'note' = 'stale'`)).toHaveLength(0);
  });
});
