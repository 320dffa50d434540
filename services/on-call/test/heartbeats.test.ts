import { createLogger } from '@firewatch/logger';
import { heartbeatExpiryJob } from '../src/jobs/heartbeat-expiry.wiring.js';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';

let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'heartbeat.*' });
});

afterAll(async () => h?.close());

const MINUTE = 60_000;
const nightly = {
  name: 'Nightly backup',
  alert_summary: 'The nightly backup did not report',
  interval: 5,
  interval_unit: 'minutes',
  notification_target_type: 'Group',
  notification_target_id: 'c3f8a1d2-2b1e-4c55-9a0e-6f1b2c3d4e5f',
};
/** A replica's expiry job whose clock the test sets. */
const job = (now: () => number) =>
  heartbeatExpiryJob(h.db.knex, { logger: createLogger({ service: 'test', level: 'silent' }), intervalMs: 1000, lateAfterMs: MINUTE, now });
const ping = (id: string) => h.call('POST', `/v1/heartbeats/${id}/ping`);
const alertsOf = (id: string) => h.db.knex('alerts').whereRaw(`data->>'heartbeat_id' = ?`, [id]);
/** Moves a heartbeat's timer as if its last ping was `ago` ms before now. */
const pingedAgo = (id: string, ago: number) =>
  h.db
    .knex('heartbeats')
    .where({ id })
    .update({ last_pinged_at: new Date(Date.now() - ago), expires_at: new Date(Date.now() - ago + 5 * MINUTE) });

describe('heartbeats', () => {
  it('creates waiting, reads, updates with PUT, lists, filters and deletes', async () => {
    const created = await h.create('heartbeats', nightly);
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(attributes).toMatchObject({
      ...nightly,
      description: null,
      alert_urgency_id: null,
      enabled: true,
      status: 'waiting',
      last_pinged_at: null,
      expires_at: null,
      ping_url: `/ingest/heartbeats/${id}`,
      owner_group_ids: [],
    });
    expect(attributes.secret).toMatch(/^fwhb_[A-Za-z0-9_-]{43}$/);
    const updated = await h.call('PUT', `/v1/heartbeats/${id}`, {
      body: { data: { type: 'heartbeats', attributes: { interval: 2, interval_unit: 'hours', description: 'pg_dump' } } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ interval: 2, interval_unit: 'hours', description: 'pg_dump', status: 'waiting' });
    expect(
      (await h.call('GET', `/v1/heartbeats?filter[name]=${encodeURIComponent('Nightly backup')}`)).body.data.map(
        (x: { id: string }) => x.id,
      ),
    ).toContain(id);
    expect((await h.call('GET', '/v1/heartbeats?filter[search]=nomatch-xyz')).body.data).toEqual([]);
    expect((await h.call('DELETE', `/v1/heartbeats/${id}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/heartbeats/${id}`)).status).toBe(404);
  });

  it.each([
    [{ ...nightly, interval: 0 }, '/data/attributes/interval'],
    [{ ...nightly, interval: 400, interval_unit: 'days' }, '/data/attributes/interval'],
    [{ ...nightly, interval_unit: 'weeks' }, '/data/attributes/interval_unit'],
    [{ ...nightly, notification_target_type: 'Team' }, '/data/attributes/notification_target_type'],
    [{ ...nightly, alert_summary: undefined }, '/data/attributes/alert_summary'],
    [{ ...nightly, alert_urgency_id: '00000000-0000-4000-8000-000000000000' }, '/data/attributes/alert_urgency_id'],
    [{ ...nightly, status: 'active' }, '/data/attributes'],
  ])('refuses %j with a 422 at its attribute', async (attributes, pointer) => {
    const answer = await h.create('heartbeats', attributes);
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContainEqual(
      expect.stringContaining(pointer),
    );
  });

  it("hides another team's heartbeats, their pings included", async () => {
    const { id } = (await h.create('heartbeats', nightly)).body.data;
    const other = { principal: { team_id: 2 } };
    expect((await h.call('GET', `/v1/heartbeats/${id}`, other)).status).toBe(404);
    expect((await h.call('POST', `/v1/heartbeats/${id}/ping`, other)).status).toBe(404);
    expect((await h.call('DELETE', `/v1/heartbeats/${id}`, other)).status).toBe(404);
  });

  it('a ping needs oc.heartbeats write: a read-only key is refused', async () => {
    const { id } = (await h.create('heartbeats', nightly)).body.data;
    const reader = { principal: { scopes: ['oc.heartbeats:read'] } };
    expect((await h.call('GET', `/v1/heartbeats/${id}`, reader)).status).toBe(200);
    expect((await h.call('POST', `/v1/heartbeats/${id}/ping`, reader)).status).toBe(403);
    expect((await h.call('POST', `/v1/heartbeats/${id}/ping`, { principal: { scopes: ['oc.heartbeats:write'] } })).status).toBe(204);
  });

  it('a ping makes it active until one interval later, and emits heartbeat.pinged', async () => {
    const { id } = (await h.create('heartbeats', nightly)).body.data;
    const before = Date.now();
    const pinged = await ping(id);
    expect(pinged.status).toBe(204);
    const { attributes } = (await h.call('GET', `/v1/heartbeats/${id}`)).body.data;
    expect(attributes.status).toBe('active');
    const expires = Date.parse(attributes.expires_at);
    expect(expires - Date.parse(attributes.last_pinged_at)).toBe(5 * MINUTE);
    expect(expires).toBeGreaterThanOrEqual(before + 5 * MINUTE - 1000);
    await h.events!.waitFor((es) => es.some((e) => e.body.type === 'heartbeat.pinged' && (e.body.data as { id: string }).id === id));
  });

  it('an expiry raises exactly one alert to its target even with two replicas racing, then a ping makes it active again', async () => {
    const { id } = (await h.create('heartbeats', nightly)).body.data;
    await ping(id);
    await pingedAgo(id, 5 * MINUTE + 10_000);
    const now = () => Date.now();
    const [a, b] = await Promise.all([job(now).tick(), job(now).tick()]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    const alerts = await alertsOf(id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      summary: nightly.alert_summary,
      status: 'triggered',
      source: 'heartbeat',
      notification_target_type: 'Group',
      notification_target_id: nightly.notification_target_id,
    });
    expect(alerts[0].data.late).toBe(false);
    expect((await h.call('GET', `/v1/heartbeats/${id}`)).body.data.attributes.status).toBe('expired');
    await job(now).tick();
    expect(await alertsOf(id)).toHaveLength(1);
    await h.events!.waitFor((es) =>
      es.some((e) => e.body.type === 'heartbeat.expired' && (e.body.data as { heartbeat: { id: string } }).heartbeat.id === id),
    );

    expect((await ping(id)).status).toBe(204);
    expect((await h.call('GET', `/v1/heartbeats/${id}`)).body.data.attributes.status).toBe('active');
    await job(now).tick();
    expect(await alertsOf(id)).toHaveLength(1);
  });

  it('after downtime an expiry fires at the first tick, marked late; a disabled heartbeat never fires', async () => {
    const { id } = (await h.create('heartbeats', nightly)).body.data;
    const off = (await h.create('heartbeats', { ...nightly, name: 'Paused' })).body.data.id;
    await Promise.all([ping(id), ping(off)]);
    await Promise.all([pingedAgo(id, 3 * 3_600_000), pingedAgo(off, 3 * 3_600_000)]);
    await h.call('PUT', `/v1/heartbeats/${off}`, { body: { data: { type: 'heartbeats', attributes: { enabled: false } } } });
    await job(() => Date.now()).tick();
    const [alert] = await alertsOf(id);
    expect(alert.data.late).toBe(true);
    expect(new Date(alert.started_at).getTime()).toBeLessThan(Date.now() - 2 * 3_600_000);
    expect(await alertsOf(off)).toHaveLength(0);
  });
});
