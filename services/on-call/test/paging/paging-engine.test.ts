import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createLogger } from '@firewatch/logger';
import { createAlertRetriggersRepository } from '../../src/data/alert-retriggers.repository.js';
import { createPagingRepository } from '../../src/data/paging.repository.js';
import { createAlertRetriggerJob } from '../../src/jobs/alert-retrigger.job.js';
import { heartbeatExpiryJob } from '../../src/jobs/heartbeat-expiry.wiring.js';
import { alertPagingOn, pagingEngineOn } from '../../src/paging.wiring.js';
import type { OnCallHarness } from '../support/on-call-harness.js';
import { ADA, BOB, MINUTE, POLICY, pagingHelpers, ports, sent, startPagingHarness } from './paging.fixture.js';

/** The engine's steps, stops and escalations (paging.fixture.ts: the world it runs in). */
let h: OnCallHarness;
beforeAll(async () => {
  h = await startPagingHarness();
});
afterAll(async () => h?.close());
const { replica, raise, timeline, act, attempts, raised } = pagingHelpers(() => h);

describe('the paging engine', () => {
  it('pages level 1 at once, level 2 after its delay, and ends unanswered, every decision on the timeline in order', async () => {
    const id = await raise();
    const start = Date.now();
    expect(await replica(() => Date.now()).sends.tick()).toBe(1);
    expect(sent).toEqual([
      expect.objectContaining({ channel: 'email', address: 'ada@pager.test', user: expect.objectContaining({ user_id: ADA }) }),
    ]);

    // Not yet due: level 2 waits 5 minutes.
    expect(await replica(() => start + 4 * MINUTE).steps.tick()).toBe(0);
    expect(await replica(() => start + 5 * MINUTE + 1000).steps.tick()).toBe(1);
    await replica(() => start + 5 * MINUTE + 2000).sends.tick();
    expect(sent.map((r) => r.address).sort()).toEqual(['ada@pager.test', 'ada@pager.test', 'bob@account.test']);
    expect(await replica(() => start + 11 * MINUTE).steps.tick()).toBe(1);
    expect(await replica(() => start + 60 * MINUTE).steps.tick()).toBe(0);

    const events = (await timeline(id)).map((e) => `${String(e.kind)}/${String(e.action)}`);
    expect(events).toEqual([
      'informational/created',
      'alert_routing/paged',
      'action/escalation_policy_paged',
      'action/paged',
      'notification/emailed',
      // Level 2 paged at 5 minutes, before the send job sent Ada's 3-minute email and Bob's.
      'action/paged',
      'notification/emailed',
      'notification/emailed',
      'informational/updated',
    ]);
    const details = (await timeline(id)).map((e) => String(e.details));
    expect(details[3]).toMatch(/^Paged level 1 of Primary: user 101/);
    expect(details[8]).toMatch(/ended unanswered after 1 round/);

    const alert = (await h.call('GET', `/v1/alerts/${id}`)).body.data.attributes;
    expect(alert.notified_users.map((u: { id: number }) => u.id)).toEqual([ADA, BOB]);
    expect(alert.alerting_targets).toEqual([{ id: POLICY, type: 'escalation_policy' }]);
    // The reference: on lists, notified_users and responders only when include names them.
    const listed = async (query: string) =>
      ((await h.call('GET', `/v1/alerts?${query}`)).body.data as { id: string; attributes: Record<string, unknown> }[]).find(
        (a) => a.id === id,
      )!.attributes;
    expect(await listed('page[size]=100')).toMatchObject({
      notified_users: null,
      responders: null,
      alerting_targets: alert.alerting_targets,
    });
    const included = await listed('page[size]=100&include=notified_users,responders');
    expect((included.notified_users as { id: number }[]).map((u) => u.id)).toEqual([ADA, BOB]);
    expect(included.responders).toEqual([]);

    await h.events!.waitFor(
      (es) => es.filter((e) => e.routingKey === 'alert.notification' && (e.body.data as any).attributes.alert_id === id).length === 3,
    );
    const notification = h.events!.events.find(
      (e) => e.routingKey === 'alert.notification' && (e.body.data as any).attributes.alert_id === id,
    )!;
    expect(notification.body.data).toMatchObject({ attributes: { user_id: ADA, channel: 'email', status: 'sent', provider_id: 'msg-1' } });
    // Contact addresses are personal: the event names the method, never the address.
    expect(JSON.stringify(notification.body.data)).not.toContain('ada@pager.test');
  });

  it('stops on acknowledge: due notifications cancelled, no next level, the acknowledger a responder', async () => {
    const id = await raise();
    const start = Date.now();
    await replica(() => Date.now()).sends.tick();
    expect(sent).toHaveLength(1);
    expect((await act(id, 'acknowledge')).status).toBe(200);
    // Ada's second rule (3 minutes) was due later: cancelled.
    expect((await attempts(id)).map((a) => a.status)).toEqual(['sent', 'cancelled']);
    expect(await replica(() => start + 10 * MINUTE).steps.tick()).toBe(0);
    expect(await replica(() => start + 10 * MINUTE).sends.tick()).toBe(0);
    const events = await timeline(id);
    expect(events.at(-1)).toMatchObject({ kind: 'informational', action: 'updated', user_id: 1 });
    expect(String(events.at(-1)!.details)).toMatch(/Paging stopped \(acknowledged\): 1 escalation policy, 1 due notification/);
    const alert = (await h.call('GET', `/v1/alerts/${id}`)).body.data.attributes;
    expect(alert.responders).toEqual([]); // user 1 of the test principal is not in the read model
  });

  it('stops on snooze, cancelling due notifications in the same write', async () => {
    const snoozed = await raise();
    expect((await act(snoozed, 'snooze', { delay_minutes: 30 })).status).toBe(200);
    expect((await attempts(snoozed)).map((a) => a.status)).toEqual(['cancelled', 'cancelled']);
    expect((await h.db.knex('alert_pagings').where({ alert_id: snoozed })).map((p) => p.stopped_reason)).toEqual(['deferred']);
    expect(await replica(() => Date.now() + 10 * MINUTE).steps.tick()).toBe(0);
  });

  it('fires a step once when two replicas claim it', async () => {
    const id = await raise();
    const due = Date.now() + 5 * MINUTE + 1000;
    const fired = await Promise.all([replica(() => due).steps.tick(), replica(() => due).steps.tick()]);
    expect(fired[0]! + fired[1]!).toBe(1);
    expect((await timeline(id)).filter((e) => e.kind === 'action' && e.action === 'paged')).toHaveLength(2);
  });

  it('leaves a step to the next tick while an acknowledge holds its alert, rather than deadlocking with it', async () => {
    const id = await raise();
    const due = Date.now() + 5 * MINUTE + 1000;
    const knex = h.db.knex as Knex;
    // An acknowledge's order: its alert FOR UPDATE, then (stopping paging) the alert's pagings.
    const acknowledged = knex.transaction(async (tx) => {
      await tx('alerts').where({ id }).forUpdate();
      const fired = replica(() => due).steps.tick();
      // The step has claimed (locked) its paging by now.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx('alert_pagings').where({ alert_id: id }).update({ state: 'stopped', stopped_reason: 'acknowledged', next_step_at: null });
      return fired;
    });
    expect(await acknowledged).toBe(0);
    expect((await timeline(id)).map((e) => String(e.details)).filter((d) => /^Paged level 2|failed/.test(d))).toEqual([]);
    // A lock that goes without stopping it leaves the step to the next tick.
    const other = await raise();
    const released = knex.transaction(async (tx) => {
      await tx('alerts').where({ id: other }).forUpdate();
      expect(await replica(() => due).steps.tick()).toBe(0);
    });
    await released;
    expect(await replica(() => due).steps.tick()).toBe(1);
    expect((await timeline(other)).filter((e) => e.kind === 'action' && e.action === 'paged')).toHaveLength(2);
  });

  it('fires a step whose replica died between claim and commit once, by the next replica', async () => {
    const id = await raise();
    const due = Date.now() + 5 * MINUTE + 1000;
    const store = createPagingRepository(h.db.knex as Knex);
    // A replica claims the step, pages level 2, and dies before its commit: all of it rolls back.
    const died = store.transaction(async (tx) => {
      const [paging] = await store.claimDue(tx, new Date(due), 10);
      await pagingEngineOn(h.db.knex as Knex, ports).step(tx, paging!, new Date(due));
      throw new Error('killed');
    });
    await expect(died).rejects.toThrow('killed');
    expect(await attempts(id)).toHaveLength(2);
    expect(await replica(() => due).steps.tick()).toBe(1);
    expect(await replica(() => due).steps.tick()).toBe(0);
    expect((await timeline(id)).filter((e) => e.kind === 'action' && e.action === 'paged')).toHaveLength(2);
    expect((await attempts(id)).map((a) => a.user_id)).toEqual([ADA, ADA, BOB]);
  });

  it('isolates a step that throws: the other due steps fire, and its own is tried again later', async () => {
    const bad = await raise();
    const good = await raise();
    const [paging] = await h.db.knex('alert_pagings').where({ alert_id: bad });
    const broken = {
      ...paging.plan,
      levels: paging.plan.levels.map((l: any) => ({ ...l, targets: [{ type: 'user', id: 'unreadable' }] })),
    };
    // Due first, so it is claimed first in the batch.
    await h.db
      .knex('alert_pagings')
      .where({ id: paging.id })
      .update({ plan: JSON.stringify(broken), next_step_at: new Date(Date.now() - 1000) });
    const due = Date.now() + 5 * MINUTE + 1000;
    expect(await replica(() => due).steps.tick()).toBe(2);
    expect((await timeline(good)).filter((e) => e.kind === 'action' && e.action === 'paged')).toHaveLength(2);
    const [after] = await h.db.knex('alert_pagings').where({ alert_id: bad });
    expect([after.state, after.level_index, new Date(after.next_step_at).getTime()]).toEqual(['active', 1, due + 5 * MINUTE]);
    expect(String((await timeline(bad)).at(-1)!.details)).toMatch(/A paging step of Primary failed; it is tried again at /);
    // Not claimed again before then: the next tick fires nothing.
    expect(await replica(() => due + MINUTE).steps.tick()).toBe(0);
  });

  it('fires a step that fell due during downtime at the next start, marked late', async () => {
    const id = await raise();
    expect(await replica(() => Date.now() + 3 * 3_600_000).steps.tick()).toBe(1);
    const paged = (await timeline(id)).filter((e) => e.kind === 'action' && e.action === 'paged');
    expect(String(paged[1]!.details)).toMatch(/Late: due at .*fired after downtime/);
    expect(String(paged[0]!.details)).not.toMatch(/Late/);
  });

  it('starts again from level 1 when the re-trigger job triggers the alert again', async () => {
    const id = await raise();
    await act(id, 'acknowledge');
    const due = Date.now() + MINUTE;
    await h.db
      .knex('alerts')
      .where({ id })
      .update({ retrigger_at: new Date(due) });
    const knex = h.db.knex as Knex;
    const retrigger = createAlertRetriggerJob({
      store: createAlertRetriggersRepository(knex),
      logger: createLogger({ service: 'test', level: 'silent' }),
      intervalMs: 1000,
      lateAfterMs: MINUTE,
      now: () => due,
      paging: alertPagingOn(knex, pagingEngineOn(knex, ports)),
    });
    expect(await retrigger.tick()).toBe(1);
    const runs = await h.db.knex('alert_pagings').where({ alert_id: id }).orderBy('run');
    expect(runs.map((r) => [r.run, r.state, r.level_index])).toEqual([
      [1, 'stopped', 1],
      [2, 'active', 1],
    ]);
    const paged = (await timeline(id)).filter((e) => e.kind === 'action' && e.action === 'paged');
    expect(paged.map((e) => String(e.details).replace(/:.*/, ''))).toEqual(['Paged level 1 of Primary', 'Paged level 1 of Primary']);
  });

  it('escalates to the next level now, by who asked; refuses a level past the path and a malformed policy id', async () => {
    const id = await raise();
    const answer = await act(id, 'escalate');
    expect(answer.status).toBe(200);
    const events = await timeline(id);
    expect(events.filter((e) => e.action === 'escalated')).toEqual([expect.objectContaining({ user_id: 1, kind: 'action' })]);
    expect(String(events.filter((e) => e.kind === 'action' && e.action === 'paged').at(-1)!.details)).toMatch(/^Paged level 2/);
    expect(answer.body.data.attributes.notified_users.map((u: { id: number }) => u.id)).toEqual([ADA, BOB]);

    const tooFar = await act(id, 'escalate', { escalation_policy_level: 3 });
    expect(tooFar.status).toBe(422);
    expect(tooFar.body.errors[0].source.pointer).toBe('/data/attributes/escalation_policy_level');
    expect((await act(id, 'escalate', { escalation_policy_id: 'nope' })).status).toBe(400);
  });

  it('pages an acknowledged alert once when escalated, and its paging stays stopped', async () => {
    const id = await raise();
    await act(id, 'acknowledge');
    expect((await act(id, 'escalate', { escalation_policy_level: 2 })).status).toBe(200);
    expect((await attempts(id)).map((a) => [a.user_id, a.status])).toEqual([
      [ADA, 'cancelled'],
      [ADA, 'cancelled'],
      [BOB, 'due'],
    ]);
    expect((await h.db.knex('alert_pagings').where({ alert_id: id })).map((p) => p.state)).toEqual(['stopped']);
    expect(await replica(() => Date.now() + 60 * MINUTE).steps.tick()).toBe(0);
  });

  it("pages a group once: its leader's paging, not its members'", async () => {
    const tag = randomUUID().slice(0, 8);
    const group = await h.create('alert_groups', {
      name: `replication ${tag}`,
      conditions: [{ property_field_name: 'summary', property_field_condition_type: 'contains', property_field_value: tag }],
    });
    expect(group.status).toBe(201);
    const target = { status: 'triggered', notification_target_type: 'EscalationPolicy', notification_target_id: POLICY };
    const leader = await h.create('alerts', { summary: `lag ${tag}`, ...target });
    const member = await h.create('alerts', { summary: `lag ${tag}`, ...target });
    raised.push(leader.body.data.id, member.body.data.id);
    expect(member.body.data.attributes.group_leader_alert_id).toBe(leader.body.data.id);
    expect((await attempts(leader.body.data.id)).length).toBeGreaterThan(0);
    expect(await attempts(member.body.data.id)).toEqual([]);
    expect((await timeline(member.body.data.id)).filter((e) => e.source === 'paging')).toEqual([]);
    expect((await act(member.body.data.id, 'escalate')).status).toBe(404);
  });

  it("pages a heartbeat's expiry alert at the heartbeat's target", async () => {
    const heartbeat = await h.create('heartbeats', {
      name: `Backup ${randomUUID().slice(0, 8)}`,
      alert_summary: 'The nightly backup did not report',
      interval: 5,
      interval_unit: 'minutes',
      notification_target_type: 'EscalationPolicy',
      notification_target_id: POLICY,
    });
    expect(heartbeat.status).toBe(201);
    const id = heartbeat.body.data.id as string;
    expect((await h.call('POST', `/v1/heartbeats/${id}/ping`)).status).toBeLessThan(300);
    await h.db
      .knex('heartbeats')
      .where({ id })
      .update({ last_pinged_at: new Date(Date.now() - 10 * MINUTE), expires_at: new Date(Date.now() - 5 * MINUTE) });
    const knex = h.db.knex as Knex;
    const expiry = heartbeatExpiryJob(knex, {
      logger: createLogger({ service: 'test', level: 'silent' }),
      intervalMs: 1000,
      lateAfterMs: MINUTE,
      paging: alertPagingOn(knex, pagingEngineOn(knex, ports)),
    });
    await expiry.tick();
    const [alert] = await knex('alerts').whereRaw(`data->>'heartbeat_id' = ?`, [id]);
    raised.push(alert.id);
    expect((await attempts(alert.id)).map((a) => a.user_id)).toEqual([ADA, ADA]);
  });

  it('pages nobody for an alert that is not triggered', async () => {
    const answer = await h.create('alerts', {
      summary: 'fyi',
      status: 'open',
      notification_target_type: 'EscalationPolicy',
      notification_target_id: POLICY,
    });
    expect(await attempts(answer.body.data.id)).toEqual([]);
  });
});
