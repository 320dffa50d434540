import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createAlertIntakeRepository } from '../src/data/alerts-in.repository.js';
import { createGroupingStore } from '../src/data/alert-grouping.repository.js';
import { createKeyedSource, ingest } from './support/ingest.js';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';

let h: OnCallHarness;

// No eventPattern: no outbox relay polls the database, so every statement counted is the intake's.
beforeAll(async () => {
  h = await startOnCall();
});

afterAll(async () => h?.close());

type Attributes = Record<string, unknown>;

/** The statements PostgreSQL received while `work` ran (the app runs on the harness's knex). */
async function statements<T>(work: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
  const sql: string[] = [];
  const listener = (query: { sql: string }) => sql.push(query.sql);
  const knex = h.db.knex as Knex;
  knex.on('query', listener);
  try {
    return { result: await work(), sql };
  } finally {
    knex.removeListener('query', listener);
  }
}

/**
 * The payload's transaction, BEGIN to COMMIT (the source's read before it, outside the
 * transaction, is one statement whatever the payload), less the source's once-a-second `last_received_at` write:
 * in or out of a count by the clock.
 */
const counted = (sql: string[]) =>
  sql.slice(sql.indexOf('BEGIN;'), sql.indexOf('COMMIT;') + 1).filter((s) => !/update "?alert_sources"?/i.test(s));

const timeline = async (id: string) =>
  ((await h.call('GET', `/v1/alerts/${id}/events`)).body.data as { attributes: Attributes }[]).map((e) => e.attributes);

/** The `data` (the alert as a resource object) of the outbox events of `type` about the alert. */
const outbox = async (type: string, alertId: string) =>
  ((await h.db.knex('outbox').where({ type }).orderBy('seq')) as { payload: unknown }[])
    .map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload).data as { id: string; attributes: Attributes })
    .filter((d) => d.id === alertId);

describe('the round trips of one alert intake (docs/performance.md, "Alert ingestion")', () => {
  it('makes a leader and a member in 8 and 7 statements in a transaction, and a deduplicated alert in 2 without one, with the same events as before', async () => {
    const source = await createKeyedSource(h);
    const same = {
      property_field_type: 'attribute',
      property_field_name: 'summary',
      property_field_condition_type: 'matches_existing_alert',
    };
    expect((await h.create('alert_groups', { name: 'by title', time_window: 60, conditions: [same] })).status).toBe(201);
    // The source's first payload warms what a process reads once.
    await ingest(h, source.id, source.secret, { id: 'warm-up', summary: 'warm-up' });

    const leader = await statements(() => ingest(h, source.id, source.secret, { id: 'a', summary: 'disk full' }));
    const member = await statements(() => ingest(h, source.id, source.secret, { id: 'b', summary: 'disk full' }));
    const again = await statements(() => ingest(h, source.id, source.secret, { id: 'b', summary: 'disk full' }));
    expect([leader, member, again].map((s) => s.result.body.meta.outcomes)).toEqual([['created'], ['created'], ['deduplicated']]);

    // BEGIN, COMMIT; the key's lock with its open alert; the groups; the group's lock with its
    // leaders; the insert with its `created` event; a leader's routes; the outbox row (a
    // member's with its join events; a deduplicated alert's with its update and event).
    // Before: 15, 12 and 7 (each lock and each event a statement of its own; a leader's paging
    // start read and updated pagings and attempts it could not have yet, and read the routes
    // and the legacy rules in two).
    // A deduplicated alert: its open alert read, then its update with its event and outbox row
    // (before: in a transaction, BEGIN, the key's lock with its open alert, that write, COMMIT).
    // The others read their key's open alert first too: none, so the transaction.
    expect(counted(leader.sql)).toHaveLength(8);
    expect(counted(member.sql)).toHaveLength(7);
    expect(again.sql).not.toContain('BEGIN;');
    const payload = (sql: string[]) => sql.filter((q) => !/update "?alert_sources"?/i.test(q));
    // The source's read, then the rest: 10, 9 and 3 a payload (before: 9, 8 and 5).
    expect([leader, member, again].map((s) => payload(s.sql).length)).toEqual([10, 9, 3]);

    const leaderId = leader.result.body.data[0].id as string;
    const memberId = member.result.body.data[0].id as string;
    expect(again.result.body.data[0].id).toBe(memberId);
    expect((await timeline(leaderId)).map((e) => [e.action, e.details])).toEqual([
      ['created', null],
      ['updated', expect.stringContaining(`(${memberId}) joined this group`)],
    ]);
    expect((await timeline(memberId)).map((e) => [e.kind, e.action, e.source, e.details])).toEqual(
      expect.arrayContaining([
        ['informational', 'created', 'generic_webhook', null],
        ['informational', 'updated', 'generic_webhook', `Grouped under leader alert ${leaderId}.`],
        ['informational', 'updated', 'generic_webhook', 'Received again with deduplication key "b" (2 times).'],
      ]),
    );
    // The outbox rows carry the alert as stored: the deduplicated one's as its update left it.
    const stored = (await h.call('GET', `/v1/alerts/${memberId}`)).body.data.attributes as Attributes;
    expect(stored.received_count).toBe(2);
    const [createdEvent] = await outbox('alert.created', memberId);
    expect(createdEvent.attributes).toMatchObject({ received_count: 1, group_leader_alert_id: leaderId });
    const [updated] = await outbox('alert.updated', memberId);
    expect(updated.attributes).toMatchObject({ received_count: 2, updated_at: stored.updated_at, summary: 'disk full' });
    // Every attribute it carries is the stored one (the row was not read back from the update).
    expect(stored).toEqual(expect.objectContaining(updated.attributes));
  });

  it("reads a payload's routes once, however many new alerts it pages", async () => {
    const created = await h.create('alert_sources', { name: `am ${randomUUID()}`, source_type: 'alertmanager' });
    const source = { id: created.body.data.id as string, secret: created.body.data.attributes.secret as string };
    const alert = (n: number) => ({
      status: 'firing',
      labels: { alertname: `Alert${n}` },
      annotations: { summary: `alert ${n} ${randomUUID()}` },
      fingerprint: randomUUID(),
    });
    const { result, sql } = await statements(() =>
      ingest(h, source.id, source.secret, { version: '4', status: 'firing', alerts: [alert(1), alert(2), alert(3)] }),
    );
    expect(result.body.meta.outcomes).toEqual(['created', 'created', 'created']);
    expect(sql.filter((s) => s.includes('alert_routes'))).toHaveLength(1);
  });

  // The lock and the read after it are one round trip but two snapshots: a single statement would
  // read with the snapshot it began with, before the lock was granted, and miss what the lock's
  // holder committed meanwhile (a second alert of one key, a second leader).
  it("sees the alert the key's previous holder committed while it waited, and the leader the group's", async () => {
    // A team of its own: grouping takes the team's oldest matching group.
    const as = { principal: { team_id: 7001 } };
    const source = await createKeyedSource(h, as);
    const teamId = Number((await h.db.knex('alert_sources').where({ id: source.id }).first()).team_id);
    const settled = (p: Promise<unknown>, ms: number) =>
      Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
    const store = createAlertIntakeRepository(h.db.knex as Knex);
    const holder = await (h.db.knex as Knex).transaction();
    try {
      await store.lockKey(holder, teamId, source.id, 'held-key');
      const waiting = ingest(h, source.id, source.secret, { id: 'held-key', summary: 'waits for the key' });
      expect(await settled(waiting, 500)).toBe(false);
      const [row] = await holder('alerts')
        .insert({
          team_id: teamId,
          source: 'generic_webhook',
          alert_source_id: source.id,
          deduplication_scope: source.id,
          deduplication_key: 'held-key',
          summary: 'committed while it waited',
          short_id: 'ALR-HELD',
          status: 'triggered',
        })
        .returning('id');
      await holder.commit();
      const answer = await waiting;
      expect(answer.body.meta.outcomes).toEqual(['deduplicated']);
      expect(answer.body.data[0].id).toBe(row.id);
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
    }

    const same = {
      property_field_type: 'attribute',
      property_field_name: 'summary',
      property_field_condition_type: 'matches_existing_alert',
    };
    const groupId = (await h.create('alert_groups', { name: `by title ${randomUUID()}`, time_window: 60, conditions: [same] }, as)).body
      .data.id as string;
    const groupHolder = await (h.db.knex as Knex).transaction();
    try {
      await createGroupingStore().lockGroup(groupHolder, teamId, groupId, 'db down');
      const waiting = ingest(h, source.id, source.secret, { id: 'member-key', summary: 'db down' });
      expect(await settled(waiting, 500)).toBe(false);
      const [leader] = await groupHolder('alerts')
        .insert({
          team_id: teamId,
          source: 'generic_webhook',
          alert_source_id: source.id,
          deduplication_scope: source.id,
          deduplication_key: 'leader-key',
          summary: 'db down',
          short_id: 'ALR-LEAD',
          status: 'triggered',
          alert_group_id: groupId,
          is_group_leader_alert: true,
        })
        .returning('id');
      await groupHolder.commit();
      const answer = await waiting;
      const member = (await h.call('GET', `/v1/alerts/${answer.body.data[0].id}`, as)).body.data.attributes;
      expect(member).toMatchObject({ group_leader_alert_id: leader.id, is_group_leader_alert: false });
    } finally {
      if (!groupHolder.isCompleted()) await groupHolder.rollback();
    }
  });
  // The deduplicated alert's write without a transaction stands in for the key's lock: it
  // writes only the row it read, so a write in between sends the alert through the lock.
  it('counts every one of many racing deduplicated alerts of one key, each with its event and outbox row', async () => {
    const source = await createKeyedSource(h);
    const first = await ingest(h, source.id, source.secret, { id: 'racing', summary: 'racing' });
    const alertId = first.body.data[0].id as string;
    const answers = await Promise.all(
      Array.from({ length: 24 }, () => ingest(h, source.id, source.secret, { id: 'racing', summary: 'racing' })),
    );
    expect(answers.map((a) => [a.status, a.body.data[0].id])).toEqual(answers.map(() => [202, alertId]));
    expect((await h.call('GET', `/v1/alerts/${alertId}`)).body.data.attributes.received_count).toBe(25);
    const again = ((await h.db.knex('alert_events').where({ alert_id: alertId, action: 'updated' })) as Attributes[]).map((e) => e.details);
    expect(again.sort()).toEqual(
      Array.from({ length: 24 }, (_, n) => `Received again with deduplication key "racing" (${n + 2} times).`).sort(),
    );
    const counts = (await outbox('alert.updated', alertId)).map((d) => d.attributes.received_count);
    expect(counts.sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 24 }, (_, n) => n + 2));
  });

  it('writes nothing of a deduplicated alert whose row changed after it was read', async () => {
    const { id: sourceId, secret } = await createKeyedSource(h);
    const first = await ingest(h, sourceId, secret, { id: 'changed', summary: 'changed' });
    const alertId = first.body.data[0].id as string;
    const teamId = Number((await h.db.knex('alert_sources').where({ id: sourceId }).first()).team_id);
    const store = createAlertIntakeRepository(h.db.knex as Knex);
    const found = await store.findOpen(teamId, sourceId, 'changed');
    expect(found?.row.id).toBe(alertId);
    // A write in between, as another intake's or an acknowledgement's.
    await h.db.knex('alerts').where({ id: alertId }).update({ received_count: 7 });
    const event = {
      team_id: teamId,
      alert_id: alertId,
      kind: 'informational' as const,
      action: 'updated' as const,
      source: 'generic_webhook',
      user_id: null,
      details: 'stale',
    };
    const outboxBefore = Number((await h.db.knex('outbox').count({ n: '*' }))[0].n);
    const written = await store.updateIfUnchanged(
      alertId,
      found!.version,
      { received_count: 2, updated_at: new Date() },
      { type: 'alert.updated', team_id: teamId, data: { id: alertId } },
      [event],
      null,
    );
    expect(written).toBe(false);
    expect((await h.db.knex('alerts').where({ id: alertId }).first()).received_count).toBe(7);
    expect(await h.db.knex('alert_events').where({ alert_id: alertId, details: 'stale' })).toHaveLength(0);
    expect(Number((await h.db.knex('outbox').count({ n: '*' }))[0].n)).toBe(outboxBefore);
    // Read again, the same write goes through.
    const fresh = await store.findOpen(teamId, sourceId, 'changed');
    expect(
      await store.updateIfUnchanged(
        alertId,
        fresh!.version,
        { received_count: 8 },
        { type: 'alert.updated', team_id: teamId, data: { id: alertId } },
        [event],
        null,
      ),
    ).toBe(true);
    expect((await h.db.knex('alerts').where({ id: alertId }).first()).received_count).toBe(8);
    expect(await h.db.knex('alert_events').where({ alert_id: alertId, details: 'stale' })).toHaveLength(1);
    expect(Number((await h.db.knex('outbox').count({ n: '*' }))[0].n)).toBe(outboxBefore + 1);
  });
});

describe('a deduplicated alert racing another write of its alert', () => {
  const settled = (p: Promise<unknown>, ms: number) =>
    Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  async function sourceWithAlert(key: string) {
    const source = await createKeyedSource(h);
    const first = await ingest(h, source.id, source.secret, { id: key, summary: key });
    return { source, alertId: first.body.data[0].id as string };
  }

  it('notes nothing of its source when its row changed after it was read (the write it answers false to is whole)', async () => {
    const { source, alertId } = await sourceWithAlert('stale-source');
    const teamId = Number((await h.db.knex('alert_sources').where({ id: source.id }).first()).team_id);
    const long = new Date('2001-01-01T00:00:00Z');
    await h.db.knex('alert_sources').where({ id: source.id }).update({ last_received_at: long });
    const store = createAlertIntakeRepository(h.db.knex as Knex);
    const found = await store.findOpen(teamId, source.id, 'stale-source');
    await h.db.knex('alerts').where({ id: alertId }).update({ received_count: 7 });
    const written = await store.updateIfUnchanged(
      alertId,
      found!.version,
      { received_count: 2 },
      { type: 'alert.updated', team_id: teamId, data: { id: alertId } },
      [],
      source.id,
    );
    expect(written).toBe(false);
    expect((await h.db.knex('alert_sources').where({ id: source.id }).first()).last_received_at).toEqual(long);
  });

  it('goes through the lock when an acknowledgement commits while it waits, its event the row as written, its source noted', async () => {
    const { source, alertId } = await sourceWithAlert('acked-meanwhile');
    // Past the once-a-second note of the first payload.
    await new Promise((r) => setTimeout(r, 1100));
    const long = new Date('2001-01-01T00:00:00Z');
    await h.db.knex('alert_sources').where({ id: source.id }).update({ last_received_at: long });
    const holder = await (h.db.knex as Knex).transaction();
    try {
      await holder('alerts').where({ id: alertId }).update({ status: 'acknowledged' });
      const waiting = ingest(h, source.id, source.secret, { id: 'acked-meanwhile', summary: 'acked-meanwhile' });
      expect(await settled(waiting, 500)).toBe(false);
      await holder.commit();
      const answer = await waiting;
      expect(answer.status).toBe(202);
      expect(answer.body.meta.outcomes).toEqual(['deduplicated']);
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
    }
    const [event] = await outbox('alert.updated', alertId);
    expect(event.attributes).toMatchObject({ status: 'acknowledged', received_count: 2 });
    expect((await h.db.knex('alert_sources').where({ id: source.id }).first()).last_received_at).not.toEqual(long);
  });

  it('makes a new alert when a resolve commits while it waits, and leaves the resolved one as it was', async () => {
    const { source, alertId } = await sourceWithAlert('resolved-meanwhile');
    const holder = await (h.db.knex as Knex).transaction();
    try {
      await holder('alerts').where({ id: alertId }).update({ status: 'resolved', ended_at: new Date() });
      const waiting = ingest(h, source.id, source.secret, { id: 'resolved-meanwhile', summary: 'resolved-meanwhile' });
      expect(await settled(waiting, 500)).toBe(false);
      await holder.commit();
      const answer = await waiting;
      expect(answer.body.meta.outcomes).toEqual(['created']);
      expect(answer.body.data[0].id).not.toBe(alertId);
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
    }
    expect((await h.db.knex('alerts').where({ id: alertId }).first()).received_count).toBe(1);
    expect(await outbox('alert.updated', alertId)).toEqual([]);
  });
});
