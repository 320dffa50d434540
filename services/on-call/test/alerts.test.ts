import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { HarnessAnswer } from '@firewatch/service-testing';
import { createAlertIntakeRepository } from '../src/data/alerts-in.repository.js';
import { ingest } from './support/ingest.js';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';

let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'alert.*' });
});

afterAll(async () => h?.close());

const act = (id: string, action: string, attributes?: Record<string, unknown>, principal?: Record<string, unknown>) =>
  h.call('POST', `/v1/alerts/${id}/${action}`, { body: { data: { type: 'alerts', ...(attributes ? { attributes } : {}) } }, principal });
const timeline = async (id: string) =>
  ((await h.call('GET', `/v1/alerts/${id}/events`)).body.data as { attributes: Record<string, unknown> }[]).map((e) => e.attributes);

describe('alerts', () => {
  it('creates with POST (201), deduplicates by key (200, count), acknowledges and resolves, with events and a timeline', async () => {
    const created = await h.create('alerts', {
      summary: 'API latency',
      deduplication_key: 'latency',
      labels: [{ key: 'env', value: 'prod' }],
    });
    expect(created.status).toBe(201);
    const { id } = created.body.data;
    expect(created.headers.get('location')).toBe(`/v1/alerts/${id}`);
    expect(created.body.data.attributes).toMatchObject({
      summary: 'API latency',
      status: 'triggered',
      source: 'api',
      received_count: 1,
      alert_source_id: null,
      group_leader_alert_id: null,
      is_group_leader_alert: false,
    });
    expect(created.body.data.attributes.short_id).toMatch(/^ALR-\d+$/);

    const again = await h.create('alerts', { summary: 'API latency again', deduplication_key: 'latency' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id, attributes: { received_count: 2, summary: 'API latency' } });

    const open = await h.create('alerts', { summary: 'FYI', status: 'open' });
    expect((await act(open.body.data.id, 'acknowledge')).status).toBe(400);

    const acked = await act(id, 'acknowledge', undefined, { user_id: 7 });
    expect(acked.status).toBe(200);
    expect(acked.body.data.attributes.status).toBe('acknowledged');
    expect((await act(id, 'acknowledge')).body.data.attributes.status).toBe('acknowledged');
    const resolved = await act(id, 'resolve', { resolution_message: 'scaled out' }, { user_id: 7 });
    expect(resolved.body.data.attributes).toMatchObject({ status: 'resolved' });
    expect(resolved.body.data.attributes.ended_at).not.toBeNull();
    expect((await act(id, 'acknowledge')).status).toBe(400);

    expect(await timeline(id)).toEqual([
      expect.objectContaining({ kind: 'informational', action: 'created', source: 'api', user_id: 1 }),
      expect.objectContaining({ kind: 'informational', action: 'updated' }),
      expect.objectContaining({ kind: 'status_update', action: 'acknowledged', user_id: 7 }),
      expect.objectContaining({ kind: 'status_update', action: 'resolved', user_id: 7, details: 'scaled out' }),
    ]);
    // Resolved, the key is free again: a new alert.
    expect((await h.create('alerts', { summary: 'API latency', deduplication_key: 'latency' })).status).toBe(201);

    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 4);
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    expect(mine.map((e) => e.routingKey)).toEqual(['alert.created', 'alert.updated', 'alert.acknowledged', 'alert.resolved']);
  });

  it('changes an alert with PATCH (an event naming what changed), and filters the list', async () => {
    const { id } = (await h.create('alerts', { summary: 'queue depth', service_ids: [randomUUID()] })).body.data;
    const patched = await h.call('PATCH', `/v1/alerts/${id}`, {
      body: { data: { type: 'alerts', attributes: { description: 'growing', noise: 'noise' } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes).toMatchObject({ description: 'growing', noise: 'noise' });
    expect((await timeline(id)).at(-1)).toMatchObject({ action: 'updated', details: 'Changed: description, noise.' });
    expect(
      (await h.call('PATCH', `/v1/alerts/${id}`, { body: { data: { type: 'alerts', attributes: { status: 'resolved' } } } })).status,
    ).toBe(422);
    expect((await h.call('PUT', `/v1/alerts/${id}`, { body: { data: { type: 'alerts', attributes: { description: 'x' } } } })).status).toBe(
      404,
    );

    const byStatus = await h.call('GET', '/v1/alerts?filter[status]=resolved');
    expect(byStatus.body.data.every((a: { attributes: { status: string } }) => a.attributes.status === 'resolved')).toBe(true);
    const byKey = await h.call('GET', '/v1/alerts?filter[deduplication_key]=latency');
    expect(byKey.body.data.length).toBeGreaterThanOrEqual(2);
    const events = await h.call('GET', `/v1/alerts/${id}/events?filter[action]=updated`);
    expect(events.body.data).toHaveLength(1);
    const event = await h.call('GET', `/v1/alert_events/${events.body.data[0].id}`);
    expect(event.body.data.attributes).toMatchObject({ alert_id: id, action: 'updated' });
    expect((await h.call('GET', '/v1/alerts?filter[colour]=red')).status).toBe(400);
  });

  it('keeps keys apart per source, also once the source is deleted, and a PATCH to a taken key is a 409', async () => {
    const created = await h.create('alert_sources', { name: 'Keys', deduplicate_alerts_by_key: true, deduplication_key_path: '$.key' });
    const { id: sourceId, attributes } = created.body.data;
    expect((await ingest(h, sourceId, attributes.secret, { summary: 'from the source', key: 'shared' })).status).toBe(202);
    const api = await h.create('alerts', { summary: 'from the API', deduplication_key: 'shared' });
    expect(api.status).toBe(201);
    expect((await h.call('DELETE', `/v1/alert_sources/${sourceId}`)).status).toBe(200);
    const kept = await h.call('GET', '/v1/alerts?filter[deduplication_key]=shared&filter[status]=triggered');
    expect(kept.body.data.map((a: { attributes: { alert_source_id: string | null } }) => a.attributes.alert_source_id)).toEqual([
      null,
      null,
    ]);
    // The deleted source's alert keeps its own scope: the API's key stays the API alert's.
    expect((await h.create('alerts', { summary: 'again', deduplication_key: 'shared' })).body.data.id).toBe(api.body.data.id);

    const other = await h.create('alerts', { summary: 'other', deduplication_key: 'other-key' });
    const taken = await h.call('PATCH', `/v1/alerts/${other.body.data.id}`, {
      body: { data: { type: 'alerts', attributes: { deduplication_key: 'shared' } } },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.errors[0].source.pointer).toBe('/data/attributes/deduplication_key');
  });

  it('takes the key lock on a PATCH to a key, so an intake that found no alert of it never collides on the unique index', async () => {
    const { id } = (await h.create('alerts', { summary: 'to be keyed' })).body.data;
    const { team_id: teamId } = await h.db.knex('alerts').where({ id }).first();
    const store = createAlertIntakeRepository(h.db.knex as Knex);
    let patch: Promise<HarnessAnswer> | undefined;
    // An intake of the key, between finding no alert of it and inserting one.
    await store.transaction(async (tx) => {
      await store.lockKey(tx, teamId, null, 'racing-key');
      expect(await store.openByKey(tx, teamId, null, 'racing-key')).toBeUndefined();
      patch = h.call('PATCH', `/v1/alerts/${id}`, { body: { data: { type: 'alerts', attributes: { deduplication_key: 'racing-key' } } } });
      const first = await Promise.race([patch.then(() => 'answered'), new Promise((r) => setTimeout(() => r('waiting'), 300))]);
      expect(first).toBe('waiting');
      await store.insertAlert(
        tx,
        { team_id: teamId, source: 'api', alert_source_id: null, status: 'triggered', summary: 'intake', deduplication_key: 'racing-key' },
        { team_id: teamId, source: 'api', user_id: null, kind: 'informational', action: 'created', details: null },
      );
    });
    // The intake's alert holds the key: the PATCH, run after it, meets the 409.
    expect((await patch!).status).toBe(409);
  });

  it('refuses bad input, and another team sees none of it', async () => {
    expect((await h.create('alerts', {})).status).toBe(422);
    expect((await h.create('alerts', { summary: 'x', status: 'resolved' })).status).toBe(422);
    expect((await h.create('alerts', { summary: 'x', alert_urgency_id: randomUUID() })).status).toBe(422);
    expect((await h.create('alerts', { summary: 'x', colour: 'red' })).status).toBe(422);
    expect((await h.create('alerts', { summary: 'x' }, { principal: { on_call_role: 'observer' } })).status).toBe(403);
    const { id } = (await h.create('alerts', { summary: 'ours' })).body.data;
    const other = { principal: { team_id: 2 } };
    expect((await h.call('GET', `/v1/alerts/${id}`, other)).status).toBe(404);
    expect((await h.call('GET', `/v1/alerts/${id}/events`, other)).status).toBe(404);
    expect((await act(id, 'resolve', undefined, { team_id: 2 })).status).toBe(404);
    expect((await h.call('GET', '/v1/alerts', other)).body.data).toEqual([]);
  });
});
