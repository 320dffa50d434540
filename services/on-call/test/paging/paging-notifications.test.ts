import type { Knex } from 'knex';
import { createMetrics, notificationRecorder, readSample } from '@firewatch/metrics';
import { createNotificationAttemptsRepository } from '../../src/data/notification-attempts.repository.js';
import { createPagingRepository } from '../../src/data/paging.repository.js';
import { withoutAddress } from '../../src/domain/paging/notification-outcome.js';
import type { OnCallHarness } from '../support/on-call-harness.js';
import { seedUsers } from '../support/users.fixture.js';
import { ADA, BOB, MINUTE, faults, pagingHelpers, sent, startPagingHarness } from './paging.fixture.js';

/** Notification attempts: sending, retries, leases, stops and who and where they reach (paging.fixture.ts). */
let h: OnCallHarness;
beforeAll(async () => {
  h = await startPagingHarness();
});
afterAll(async () => h?.close());
const { replica, raise, timeline, act, attempts } = pagingHelpers(() => h);

/** Resolves once `ready()` holds, looking every 20 ms for up to 5 s. */
async function until(ready: () => boolean) {
  for (const end = Date.now() + 5000; !ready();) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the paging engine's notifications", () => {
  it('retries a failed notification with backoff, each try on the timeline', async () => {
    const id = await raise();
    const start = Date.now();
    faults.outage = 1;
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

  it('counts each outcome by channel, and how long after each try was due it was handed over, at /metrics', async () => {
    await raise();
    const start = Date.now();
    const metrics = createMetrics({ service: 'on-call-test', defaultMetrics: false });
    const recorder = notificationRecorder(metrics);
    faults.outage = 1;
    await replica(() => start, recorder).sends.tick();
    await replica(() => start + 31_000, recorder).sends.tick();
    const text = (await metrics.scrape()).body;
    expect(readSample(text, 'firewatch_notifications_total', { channel: 'email', outcome: 'failed' })).toBe(1);
    expect(readSample(text, 'firewatch_notifications_total', { channel: 'email', outcome: 'sent' })).toBe(1);
    const late = readSample(text, 'firewatch_notification_latency_seconds_sum', { channel: 'email', outcome: 'sent' });
    // The second try was due at its retry, 30 s after the first; it went 1 s after that.
    expect(late).toBeGreaterThan(0.5);
    expect(late).toBeLessThan(5);
  });

  it('sends a notification whose replica died mid-send once its lease ran out, not before', async () => {
    await raise();
    const start = Date.now();
    // A replica claims the attempt and dies before recording anything.
    const claimed = await createNotificationAttemptsRepository(h.db.knex as Knex).claimAttempts(new Date(start), 10, MINUTE, 4);
    expect(claimed).toHaveLength(1);
    expect(await replica(() => start + 30_000).sends.tick()).toBe(0);
    expect(await replica(() => start + MINUTE + 1000).sends.tick()).toBe(1);
    expect(sent.map((r) => r.attempt_id)).toEqual([claimed[0]!.id]);
  });

  it('gives up a notification whose senders all died mid-send, rather than sending it again every lease', async () => {
    const id = await raise();
    const start = Date.now();
    const store = createNotificationAttemptsRepository(h.db.knex as Knex);
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

  it('sends the attempts that fall due while one send hangs in the same tick, not after it', async () => {
    const first = await raise();
    let release = () => {};
    const hanging = new Promise<void>((resolve) => (release = resolve));
    let hung = false;
    faults.duringSend = () => ((hung = true), hanging);
    const tick = replica(() => Date.now()).sends.tick();
    try {
      await until(() => hung);
      const second = await raise();
      // The first alert's email still hangs; the second's goes at the tick's next look.
      await until(() => sent.some((r) => r.alert.id === second));
      expect(sent.map((r) => r.alert.id)).toEqual([second]);
    } finally {
      release();
    }
    expect(await tick).toBe(2);
    expect(sent.map((r) => r.alert.id)).toEqual([expect.any(String), first]);
    expect(sent[0]!.alert.id).not.toBe(first);
  });

  it('waits on stop for the sends under way, and claims no more', async () => {
    await raise();
    let release = () => {};
    const hanging = new Promise<void>((resolve) => (release = resolve));
    let hung = false;
    faults.duringSend = () => ((hung = true), hanging);
    const job = replica(() => Date.now()).sends;
    job.start();
    await until(() => hung);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await raise();
    await new Promise((resolve) => setTimeout(resolve, 1500)); // past the job's 1 s look
    expect([stopped, sent.length]).toEqual([false, 0]);
    release();
    await stopping;
    expect(sent).toHaveLength(1);
  });

  it("keeps the address out of a provider's refusal on the timeline and in alert.notification", async () => {
    const id = await raise();
    faults.refusal = (address) => `the mail server refused the message: 550 5.1.1 <${address.toUpperCase()}>: Recipient address rejected`;
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
    faults.outage = 1;
    faults.duringSend = () => act(failed, 'acknowledge');
    expect(await replica(() => start).sends.tick()).toBe(1);
    expect((await attempts(failed)).map((a) => a.status)).toEqual(['cancelled', 'cancelled']);
    expect(await replica(() => start + 31_000).sends.tick()).toBe(0);
    const tries = (await timeline(failed)).filter((e) => e.kind === 'notification').map((e) => String(e.details));
    expect(tries).toEqual([expect.stringMatching(/try 1\): failed: the mail server could not be reached\.$/)]);

    const orphan = await raise();
    const claimedAt = Date.now();
    // A replica claims the attempt and dies; the alert is acknowledged before its lease runs out.
    expect(await createNotificationAttemptsRepository(h.db.knex as Knex).claimAttempts(new Date(claimedAt), 10, MINUTE, 4)).toHaveLength(1);
    expect((await act(orphan, 'acknowledge')).status).toBe(200);
    expect(await replica(() => claimedAt + MINUTE + 1000).sends.tick()).toBe(0);
    expect(sent).toEqual([]);
  });

  it('skips the account email of a user who has none, rather than trying an empty address', async () => {
    const id = await raise();
    const knex = h.db.knex as Knex;
    await knex('users').where({ user_id: BOB }).update({ email: '' });
    try {
      expect((await act(id, 'escalate')).status).toBe(200); // level 2: Bob, who has no rules
      await replica(() => Date.now()).sends.tick();
    } finally {
      await knex('users').where({ user_id: BOB }).update({ email: 'bob@account.test' });
    }
    const bob = (await attempts(id)).find((a) => a.user_id === BOB)!;
    expect([bob.status, bob.reason]).toEqual(['skipped', 'the user has no email address']);
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
});
