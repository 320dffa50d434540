import type { Knex } from 'knex';
import { createLogger } from '@firewatch/logger';
import { createAlertRetriggersRepository } from '../src/data/alert-retriggers.repository.js';
import { createAlertRetriggerJob } from '../src/jobs/alert-retrigger.job.js';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';

const MINUTE = 60_000;
let h: OnCallHarness;
let high: string;
let low: string;
let ruleId: string;

beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'alert.*' });
  high = (await h.create('alert_urgencies', { name: 'High', description: 'now' })).body.data.id;
  low = (await h.create('alert_urgencies', { name: 'Low', description: 'later' })).body.data.id;
  ruleId = (
    await h.create('alert_retrigger_rules', {
      name: 'High after 10 minutes',
      timeout_minutes: 10,
      conditions: [{ kind: 'urgency', operator: 'is_one_of', record_ids: [high] }],
    })
  ).body.data.id;
});
afterAll(async () => h?.close());

/** A replica's re-trigger job over the shared database, its clock at `at`. */
const replica = (at: () => number) =>
  createAlertRetriggerJob({
    store: createAlertRetriggersRepository(h.db.knex as Knex),
    logger: createLogger({ service: 'test', level: 'silent' }),
    intervalMs: 1000,
    lateAfterMs: MINUTE,
    now: at,
  });

const act = (id: string, action: string) => h.call('POST', `/v1/alerts/${id}/${action}`, { body: { data: { type: 'alerts' } } });
const status = async (id: string) => (await h.call('GET', `/v1/alerts/${id}`)).body.data.attributes.status as string;
const timeline = async (id: string) =>
  ((await h.call('GET', `/v1/alerts/${id}/events`)).body.data as { attributes: Record<string, unknown> }[]).map((e) => e.attributes);
const alert = async (urgency: string) =>
  (await h.create('alerts', { summary: 'disk full', alert_urgency_id: urgency })).body.data.id as string;
const dueAt = async (id: string) =>
  ((await h.db.knex('alerts').where({ id }).first('retrigger_at')).retrigger_at as Date | null)?.getTime() ?? null;

describe('alert re-trigger timers', () => {
  it('triggers an acknowledged alert again at acknowledgment + timeout, once, with two replicas racing', async () => {
    const id = await alert(high);
    const before = Date.now();
    expect((await act(id, 'acknowledge')).status).toBe(200);
    const due = (await dueAt(id))!;
    expect(due).toBeGreaterThanOrEqual(before + 10 * MINUTE);
    expect(due).toBeLessThanOrEqual(Date.now() + 10 * MINUTE);

    // Not yet due: nothing.
    expect(await replica(() => due - 1).tick()).toBe(0);
    expect(await status(id)).toBe('acknowledged');

    const fired = await Promise.all([replica(() => due + 1000).tick(), replica(() => due + 1000).tick()]);
    expect(fired[0]! + fired[1]!).toBe(1);
    expect(await status(id)).toBe('triggered');
    expect(await dueAt(id)).toBeNull();
    expect(await replica(() => due + 2000).tick()).toBe(0);
    const retriggered = (await timeline(id)).filter((e) => e.action === 'retriggered');
    expect(retriggered).toEqual([expect.objectContaining({ kind: 'status_update', source: 'alert_retrigger_rule', user_id: null })]);
    expect(retriggered[0]!.details).toContain(ruleId);
    expect(retriggered[0]!.details).not.toContain('late');

    await h.events!.waitFor((es) => es.some((e) => e.routingKey === 'alert.retriggered' && (e.body.data as { id: string }).id === id));
    const events = h.events!.events.filter((e) => e.routingKey === 'alert.retriggered' && (e.body.data as { id: string }).id === id);
    expect(events).toHaveLength(1);
    expect(events[0]!.body.data).toMatchObject({
      attributes: { status: 'triggered' },
      meta: { late: false, alert_retrigger_rule_id: ruleId },
    });
  });

  it('does nothing for an alert resolved before its timer is due', async () => {
    const id = await alert(high);
    await act(id, 'acknowledge');
    const due = (await dueAt(id))!;
    await act(id, 'resolve');
    expect(await dueAt(id)).toBeNull();
    expect(await replica(() => due + 1000).tick()).toBe(0);
    expect(await status(id)).toBe('resolved');
  });

  it('leaves a stale timer unfired: an alert acknowledged again keeps only its new timer', async () => {
    const id = await alert(high);
    await act(id, 'acknowledge');
    const first = (await dueAt(id))!;
    // Re-triggered, then acknowledged again later: only the new timer counts.
    expect(await replica(() => first + 1000).tick()).toBe(1);
    await h.db
      .knex('alerts')
      .where({ id })
      .update({ status: 'acknowledged', retrigger_at: new Date(first + 30 * MINUTE) });
    expect(await replica(() => first + 2000).tick()).toBe(0);
    expect(await status(id)).toBe('acknowledged');
    expect(await replica(() => first + 30 * MINUTE + 1000).tick()).toBe(1);
    expect((await timeline(id)).filter((e) => e.action === 'retriggered')).toHaveLength(2);
  });

  it('sets a new timer on each acknowledgment, replacing the earlier one', async () => {
    const id = await alert(high);
    await act(id, 'acknowledge');
    const first = (await dueAt(id))!;
    await h.db.knex('alerts').where({ id }).update({ status: 'triggered' });
    await new Promise((r) => setTimeout(r, 20));
    await act(id, 'acknowledge');
    const second = (await dueAt(id))!;
    expect(second).toBeGreaterThan(first);
    expect(await replica(() => first + 1).tick()).toBe(0);
    expect(await replica(() => second + 1).tick()).toBe(1);
  });

  it('sets no timer when no rule matches', async () => {
    const id = await alert(low);
    await act(id, 'acknowledge');
    expect(await dueAt(id)).toBeNull();
    expect(await replica(() => Date.now() + 1440 * MINUTE).tick()).toBe(0);
    expect(await status(id)).toBe('acknowledged');
  });

  it('fires a timer that fell due during downtime at the next start, marked late', async () => {
    const id = await alert(high);
    await act(id, 'acknowledge');
    const due = (await dueAt(id))!;
    expect(await replica(() => due + 3 * 3_600_000).tick()).toBe(1);
    expect(await status(id)).toBe('triggered');
    const [event] = (await timeline(id)).filter((e) => e.action === 'retriggered');
    expect(event!.details).toContain('late');
    await h.events!.waitFor((es) => es.some((e) => e.routingKey === 'alert.retriggered' && (e.body.data as { id: string }).id === id));
    const published = h.events!.events.find((e) => e.routingKey === 'alert.retriggered' && (e.body.data as { id: string }).id === id);
    expect(published!.body.data).toMatchObject({ meta: { late: true } });
  });
});

describe('snooze', () => {
  const snooze = (id: string, attributes: unknown) =>
    h.call('POST', `/v1/alerts/${id}/snooze`, { body: { data: { type: 'alerts', attributes } } });

  it('defers an alert until its time, then triggers it again (once), each step on the timeline', async () => {
    const id = await alert(low);
    const before = Date.now();
    const snoozed = await snooze(id, { delay_minutes: 30 });
    expect(snoozed.status).toBe(200);
    expect(snoozed.body.data.attributes.status).toBe('deferred');
    const due = (await dueAt(id))!;
    expect(due).toBeGreaterThanOrEqual(before + 30 * MINUTE);
    expect(await replica(() => due - 1).tick()).toBe(0);
    expect(await status(id)).toBe('deferred');
    const fired = await Promise.all([replica(() => due + 1).tick(), replica(() => due + 1).tick()]);
    expect(fired[0]! + fired[1]!).toBe(1);
    expect(await status(id)).toBe('triggered');
    const steps = (await timeline(id)).filter((e) => e.action === 'snoozed' || e.action === 'retriggered');
    expect(steps).toEqual([
      expect.objectContaining({ action: 'snoozed', source: 'api', user_id: 1 }),
      expect.objectContaining({ action: 'retriggered', source: 'snooze', user_id: null }),
    ]);
    expect(steps[1]!.details).toMatch(/^Snooze ended/);
  });

  it('is replaced by an acknowledgment, and refuses a resolved alert (400) and a bad body (422)', async () => {
    const id = await alert(high);
    await snooze(id, { delay_minutes: 5 });
    const snoozeDue = (await dueAt(id))!;
    expect((await act(id, 'acknowledge')).body.data.attributes.status).toBe('acknowledged');
    expect(await dueAt(id)).toBeGreaterThan(snoozeDue);

    for (const attributes of [
      {},
      { delay_minutes: 0 },
      { delay_minutes: 10_081 },
      { delay_minutes: 1.5 },
      { delay_minutes: 5, extra: 1 },
    ]) {
      const answer = await snooze(id, attributes);
      expect(answer.status).toBe(422);
      expect(answer.body.errors[0].source.pointer).toMatch(/^\/data\/attributes/);
    }
    await act(id, 'resolve');
    expect((await snooze(id, { delay_minutes: 5 })).status).toBe(400);
  });
});
