import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createLogger } from '@firewatch/logger';
import type { EscalationPathPlan, NotificationRequest, Notifier } from '../../src/domain/paging/paging.ports.js';
import { createAlertRetriggersRepository } from '../../src/data/alert-retriggers.repository.js';
import { createPagingRepository } from '../../src/data/paging.repository.js';
import { withoutAddress } from '../../src/domain/paging/notification-outcome.js';
import { createAlertRetriggerJob } from '../../src/jobs/alert-retrigger.job.js';
import { heartbeatExpiryJob } from '../../src/jobs/heartbeat-expiry.wiring.js';
import { alertPagingOn, pagingEngineOn, pagingJobsOn, type PagingPorts } from '../../src/paging.wiring.js';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { seedUsers } from '../support/users.fixture.js';

const MINUTE = 60_000;
const ADA = 101;
const BOB = 102;
const POLICY = randomUUID();

/**
 * The engine through HTTP and PostgreSQL, with the two sides it asks fixed (a policy whose
 * level 1 pages Ada and, 5 minutes later, level 2 pages Bob), the notifier a recorder, and
 * the jobs ticked with a given clock.
 */
const plan: EscalationPathPlan = {
  policy: { id: POLICY, name: 'Primary' },
  path: { id: randomUUID(), name: 'Default', is_default: true },
  initial_delay: 0,
  notification_type: 'audible',
  repeat_count: 0,
  reason: 'default path',
  levels: [ADA, BOB].map((user, i) => ({
    id: randomUUID(),
    position: i + 1,
    delay: 5,
    paging_strategy: 'default' as const,
    schedule_strategy: 'on_call_only' as const,
    targets: [{ type: 'user' as const, id: String(user) }],
  })),
};
const ports: PagingPorts = {
  router: { route: async () => ({ destinations: [], route: null, rule: null }) },
  plans: {
    policyFor: async (_tx, _team, d) => (d.target_id === POLICY ? plan.policy : null),
    pathFor: async (_tx, _team, id) => (id === POLICY ? plan : null),
    resolveLevel: async (_tx, _team, level) => {
      // A row the code cannot read (a bug, an old plan): resolving its level throws.
      if (level.targets.some((t) => t.id === 'unreadable')) throw new Error('unreadable target');
      return level.targets.map((target) => ({ target, user_ids: [Number(target.id)], policies: [], explanation: `user ${target.id}` }));
    },
  },
};

const sent: NotificationRequest[] = [];
/** How many sends fail next (an SMTP outage). */
let outage = 0;
/** The next send's refusal, quoting the address as providers do. */
let refusal: ((address: string) => string) | undefined;
/** Runs once inside the next send (something that happens while a notification is on its way). */
let duringSend: (() => Promise<unknown>) | undefined;
const notifier: Notifier = {
  async send(request) {
    const during = duringSend;
    duringSend = undefined;
    await during?.();
    if (outage > 0) {
      outage--;
      return { status: 'failed', reason: 'the mail server could not be reached' };
    }
    if (refusal) {
      const reason = refusal(request.address);
      refusal = undefined;
      return { status: 'failed', reason };
    }
    sent.push(request);
    return { status: 'sent', provider_id: `msg-${sent.length}` };
  },
};

let h: OnCallHarness;
beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'alert.*', paging: ports });
  await seedUsers(h.db.knex as Knex, [
    { team_id: 1, user_id: ADA, name: 'Ada', email: 'ada@account.test' },
    { team_id: 1, user_id: BOB, name: 'Bob', email: 'bob@account.test' },
  ]);
  const [email] = await h.db.knex('user_email_addresses').insert({ team_id: 1, user_id: ADA, email: 'ada@pager.test' }).returning('id');
  await h.db.knex('user_notification_rules').insert([
    { team_id: 1, user_id: ADA, position: 1, delay: 0, user_email_address_id: email.id, enabled_contact_types: JSON.stringify(['email']) },
    { team_id: 1, user_id: ADA, position: 2, delay: 3, user_email_address_id: email.id, enabled_contact_types: JSON.stringify(['email']) },
  ]);
});
afterAll(async () => h?.close());
const raised: string[] = [];
beforeEach(() => {
  sent.length = 0;
});
// Each test's alerts end with it: a later test's clock finds none of their steps due.
afterEach(async () => {
  for (const id of raised.splice(0)) await act(id, 'resolve');
});

/** A replica's jobs over the shared database, their clock at `at`. */
const replica = (at: () => number) => {
  const knex = h.db.knex as Knex;
  return pagingJobsOn(knex, {
    engine: pagingEngineOn(knex, ports),
    notifier,
    logger: createLogger({ service: 'test', level: 'silent' }),
    intervalMs: 1000,
    sendIntervalMs: 1000,
    sendLeaseMs: MINUTE,
    now: at,
  });
};

const raise = async () => {
  const answer = await h.create('alerts', {
    summary: 'disk full',
    status: 'triggered',
    notification_target_type: 'EscalationPolicy',
    notification_target_id: POLICY,
  });
  expect(answer.status).toBe(201);
  raised.push(answer.body.data.id as string);
  return answer.body.data.id as string;
};
const timeline = async (id: string) =>
  ((await h.call('GET', `/v1/alerts/${id}/events?page[size]=100`)).body.data as { attributes: Record<string, unknown> }[]).map(
    (e) => e.attributes,
  );
const act = (id: string, action: string, attributes?: unknown) =>
  h.call('POST', `/v1/alerts/${id}/${action}`, { body: { data: { type: 'alerts', ...(attributes ? { attributes } : {}) } } });
const attempts = (id: string) => h.db.knex('alert_notification_attempts').where({ alert_id: id }).orderBy('created_at');

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

  it('retries a failed notification with backoff, each try on the timeline', async () => {
    const id = await raise();
    const start = Date.now();
    outage = 1;
    expect(await replica(() => start).sends.tick()).toBe(1);
    expect(sent).toEqual([]);
    expect(await replica(() => start + 10_000).sends.tick()).toBe(0);
    expect(await replica(() => start + 31_000).sends.tick()).toBe(1);
    expect(sent.map((r) => r.user.user_id)).toEqual([ADA]);
    const tries = (await timeline(id)).filter((e) => e.kind === 'notification').map((e) => String(e.details));
    expect(tries).toEqual([
      expect.stringMatching(/try 1\): failed: the mail server could not be reached; retrying at /),
      expect.stringMatching(/try 2\): sent/),
    ]);
  });

  it('sends a notification whose replica died mid-send once its lease ran out, not before', async () => {
    await raise();
    const start = Date.now();
    // A replica claims the attempt and dies before recording anything.
    const claimed = await createPagingRepository(h.db.knex as Knex).claimAttempts(new Date(start), 10, MINUTE, 4);
    expect(claimed).toHaveLength(1);
    expect(await replica(() => start + 30_000).sends.tick()).toBe(0);
    expect(await replica(() => start + MINUTE + 1000).sends.tick()).toBe(1);
    expect(sent.map((r) => r.attempt_id)).toEqual([claimed[0]!.id]);
  });

  it('gives up a notification whose senders all died mid-send, rather than sending it again every lease', async () => {
    const id = await raise();
    const start = Date.now();
    const store = createPagingRepository(h.db.knex as Knex);
    // Four replicas in turn claim it and die before recording anything, each after the last one's (10 s) lease.
    for (let i = 0; i < 4; i++) expect(await store.claimAttempts(new Date(start + i * 11_000), 10, 10_000, 4)).toHaveLength(1);
    expect(await replica(() => start + 33_000 + MINUTE + 1000).sends.tick()).toBe(1);
    expect(sent).toEqual([]);
    expect((await attempts(id)).map((a) => [a.status, a.tries]).sort()).toEqual([
      ['due', 0], // Ada's 3-minute rule
      ['failed', 5],
    ]);
    const notified = (await timeline(id)).filter((e) => e.kind === 'notification').map((e) => String(e.details));
    expect(notified).toEqual([
      expect.stringMatching(/try 5\): failed: its sender stopped before reporting on each of 4 tries: given up\.$/),
    ]);
  });

  it("keeps the address out of a provider's refusal on the timeline and in alert.notification", async () => {
    const id = await raise();
    refusal = (address) => `the mail server refused the message: 550 5.1.1 <${address.toUpperCase()}>: Recipient address rejected`;
    expect(await replica(() => Date.now()).sends.tick()).toBe(1);
    const [failed] = (await timeline(id)).filter((e) => e.kind === 'notification');
    expect(String(failed!.details)).toMatch(/refused the message: 550 5\.1\.1 <the address>: Recipient address rejected; retrying at /);
    await h.events!.waitFor((es) =>
      es.some((e) => e.routingKey === 'alert.notification' && (e.body.data as any).attributes.alert_id === id),
    );
    const event = h.events!.events.find((e) => e.routingKey === 'alert.notification' && (e.body.data as any).attributes.alert_id === id)!;
    expect((event.body.data as any).attributes.reason).toMatch(/<the address>/);
    expect(JSON.stringify(event.body).toLowerCase()).not.toContain('ada@pager.test');
    const sms = withoutAddress({ status: 'failed', reason: "The 'To' number 14155550100 is not valid (+14155550100)" }, '+14155550100');
    expect(sms.reason).toBe("The 'To' number the address is not valid (the address)");
  });

  it('does not retry a notification that failed while paging stopped, nor resend one whose sender died', async () => {
    const failed = await raise();
    const start = Date.now();
    outage = 1;
    duringSend = () => act(failed, 'acknowledge');
    expect(await replica(() => start).sends.tick()).toBe(1);
    expect((await attempts(failed)).map((a) => a.status)).toEqual(['cancelled', 'cancelled']);
    expect(await replica(() => start + 31_000).sends.tick()).toBe(0);
    const tries = (await timeline(failed)).filter((e) => e.kind === 'notification').map((e) => String(e.details));
    expect(tries).toEqual([expect.stringMatching(/try 1\): failed: the mail server could not be reached\.$/)]);

    const orphan = await raise();
    const claimedAt = Date.now();
    // A replica claims the attempt and dies; the alert is acknowledged before its lease runs out.
    expect(await createPagingRepository(h.db.knex as Knex).claimAttempts(new Date(claimedAt), 10, MINUTE, 4)).toHaveLength(1);
    expect((await act(orphan, 'acknowledge')).status).toBe(200);
    expect(await replica(() => claimedAt + MINUTE + 1000).sends.tick()).toBe(0);
    expect(sent).toEqual([]);
  });

  it('sends where a contact method points at send time, and skips a user deleted since the page', async () => {
    const id = await raise();
    expect((await act(id, 'escalate')).status).toBe(200); // level 2: Bob, by his account email
    const knex = h.db.knex as Knex;
    await knex('user_email_addresses').where({ email: 'ada@pager.test' }).update({ email: 'ada@moved.test' });
    await knex('users').where({ user_id: BOB }).update({ deleted_at: new Date() });
    try {
      expect(await replica(() => Date.now()).sends.tick()).toBe(2);
    } finally {
      await knex('user_email_addresses').where({ email: 'ada@moved.test' }).update({ email: 'ada@pager.test' });
      await knex('users').where({ user_id: BOB }).update({ deleted_at: null });
    }
    expect(sent.map((r) => [r.user.user_id, r.address])).toEqual([[ADA, 'ada@moved.test']]);
    const bob = (await attempts(id)).find((a) => a.user_id === BOB)!;
    expect([bob.status, bob.reason]).toEqual(['skipped', 'the user was deleted']);
    const skipped = (await timeline(id)).filter((e) => e.kind === 'notification' && e.action === 'skipped');
    expect(skipped.map((e) => [e.user_id, e.details])).toEqual([
      [BOB, 'Email to Bob (the account email, try 1): skipped: the user was deleted.'],
    ]);
  });

  it('fires a step once when two replicas claim it', async () => {
    const id = await raise();
    const due = Date.now() + 5 * MINUTE + 1000;
    const fired = await Promise.all([replica(() => due).steps.tick(), replica(() => due).steps.tick()]);
    expect(fired[0]! + fired[1]!).toBe(1);
    expect((await timeline(id)).filter((e) => e.kind === 'action' && e.action === 'paged')).toHaveLength(2);
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

  it("reaches a rule's primary contact method as the API defines it: the user's oldest", async () => {
    const CARL = 103;
    const knex = h.db.knex as Knex;
    await seedUsers(knex, [{ team_id: 1, user_id: CARL, name: 'Carl', email: 'carl@account.test' }]);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await knex('user_email_addresses').insert([
      { team_id: 1, user_id: CARL, email: 'carl-new@pager.test' },
      { team_id: 1, user_id: CARL, email: 'carl-old@pager.test', created_at: hourAgo },
    ]);
    await knex('user_phone_numbers').insert([
      { team_id: 1, user_id: CARL, phone: '+14155550102' },
      { team_id: 1, user_id: CARL, phone: '+14155550101', created_at: hourAgo },
    ]);
    // No contact method named: the rule reaches the primary one of each type.
    await knex('user_notification_rules').insert({
      team_id: 1,
      user_id: CARL,
      position: 1,
      delay: 0,
      enabled_contact_types: JSON.stringify(['email', 'sms', 'call']),
    });
    const shown = (await h.call('GET', `/v1/users/${CARL}/email_addresses`)).body.data as { attributes: Record<string, unknown> }[];
    expect(shown.filter((e) => e.attributes.primary).map((e) => e.attributes.email)).toEqual(['carl-old@pager.test']);
    const users = await knex.transaction((tx) => createPagingRepository(knex).pagedUsers(tx, 1, [CARL]));
    expect(users.get(CARL)!.rules.map((r) => [r.email, r.sms, r.call])).toEqual([['carl-old@pager.test', '+14155550101', '+14155550101']]);
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
