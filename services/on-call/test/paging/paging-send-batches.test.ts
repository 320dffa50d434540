import type { Knex } from 'knex';
import { createLogger } from '@firewatch/logger';
import { createNotificationAttemptsRepository } from '../../src/data/notification-attempts.repository.js';
import type { NotificationAttemptStore } from '../../src/domain/paging/paging.deps.js';
import { createNotificationSendJob } from '../../src/jobs/notification-send.job.js';
import { attemptsDueWaker } from '../../src/paging.wiring.js';
import type { OnCallHarness } from '../support/on-call-harness.js';
import { MINUTE, notifier, pagingHelpers, sent, startPagingHarness } from './paging.fixture.js';

/** How the send job records outcomes (together) and finds attempts due now (woken, not polled) (paging.fixture.ts). */
let h: OnCallHarness;
beforeAll(async () => {
  h = await startPagingHarness();
});
afterAll(async () => h?.close());
const { raise, timeline, attempts } = pagingHelpers(() => h);
/** Statuses of an alert's attempts, sorted (its two are made together). */
const statuses = async (id: string) => (await attempts(id)).map((a) => String(a.status)).sort();
const logger = createLogger({ service: 'test', level: 'silent' });

async function until(ready: () => boolean | Promise<boolean>) {
  for (const end = Date.now() + 5000; !(await ready());) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The alert's attempts being sent, cancelled as an acknowledge cancels them. */
const cancelAttempts = (tx: Knex.Transaction, alertId: string) =>
  tx('alert_notification_attempts').where({ alert_id: alertId, status: 'sending' }).update({ status: 'cancelled', reason: 'acknowledged' });

/**
 * An acknowledge under way: a transaction that runs `first` and then stays open, holding its
 * locks, until `commit()` runs `then` and commits it.
 */
async function acknowledging(first: (tx: Knex.Transaction) => Promise<unknown>, then?: (tx: Knex.Transaction) => Promise<unknown>) {
  let release = () => {};
  let locked = false;
  const done = (h.db.knex as Knex).transaction(async (tx) => {
    await first(tx);
    locked = true;
    await new Promise<void>((resolve) => (release = resolve));
    await then?.(tx);
  });
  await until(() => locked);
  return {
    commit: async () => {
      release();
      await done;
    },
  };
}

/** The attempts' store, counting its transactions (claims take none: each is one statement). */
function countingStore() {
  const store = createNotificationAttemptsRepository(h.db.knex as Knex);
  const counted = { transactions: 0 };
  const wrapped: NotificationAttemptStore = {
    ...store,
    transaction: (work) => {
      counted.transactions++;
      return store.transaction(work);
    },
  };
  return { store: wrapped, counted };
}

/** A notifier whose sends all hang until `release()`, then answer together. */
function heldNotifier() {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let waiting = 0;
  return {
    notifier: { send: async (r: Parameters<typeof notifier.send>[0]) => (waiting++, await held, notifier.send(r)) },
    release: () => release(),
    waiting: () => waiting,
  };
}

describe('the notification send job', () => {
  it('records the outcomes of sends that finish together in one transaction, each on its timeline and as alert.notification', async () => {
    const ids = [await raise(), await raise(), await raise()];
    const { store, counted } = countingStore();
    const held = heldNotifier();
    const job = createNotificationSendJob({ store, notifier: held.notifier, logger, intervalMs: 1000, leaseMs: MINUTE });
    const tick = job.tick();
    await until(() => held.waiting() === 3);
    held.release();
    expect(await tick).toBe(3);
    expect(counted.transactions).toBe(1);
    for (const id of ids) {
      expect(await statuses(id)).toEqual(['due', 'sent']); // Ada's 3- and 0-minute rules
      const notified = (await timeline(id)).filter((e) => e.kind === 'notification').map((e) => String(e.details));
      expect(notified).toEqual([expect.stringMatching(/^Email to Ada \(contact method [0-9a-f-]+, try 1\): sent \(msg-\d+\)\.$/)]);
    }
    await h.events!.waitFor((es) =>
      ids.every((id) => es.some((e) => e.routingKey === 'alert.notification' && (e.body.data as any).attributes.alert_id === id)),
    );
  });

  it('records an outcome whose attempt an acknowledge holds after that commits, not waiting for it in the batch', async () => {
    const [free, held] = [await raise(), await raise()];
    const { store } = countingStore();
    const sends = heldNotifier();
    const job = createNotificationSendJob({ store, notifier: sends.notifier, logger, intervalMs: 1000, leaseMs: MINUTE });
    const tick = job.tick();
    await until(() => sends.waiting() === 2);
    // An acknowledge's transaction holds the held alert's attempt while the outcomes are recorded.
    const ack = await acknowledging((tx) => cancelAttempts(tx, held));
    sends.release();
    // The other alert's outcome is committed while the acknowledge still holds its row.
    await until(async () => (await statuses(free)).includes('sent'));
    expect(await statuses(held)).toEqual(['due', 'sending']);
    await ack.commit();
    expect(await tick).toBe(2);
    // Sent while paging stopped: its outcome is recorded, the attempt stays cancelled (notification-outcome.ts).
    expect(await statuses(held)).toEqual(['due', 'sent']);
    const notified = (await timeline(held)).filter((e) => e.kind === 'notification').map((e) => String(e.details));
    expect(notified).toEqual([expect.stringMatching(/try 1\): sent/)]);
  });

  it("records the others' outcomes while an acknowledge holds an alert, before it reaches that alert's attempts", async () => {
    const [free, held] = [await raise(), await raise()];
    const { store } = countingStore();
    const sends = heldNotifier();
    const job = createNotificationSendJob({ store, notifier: sends.notifier, logger, intervalMs: 1000, leaseMs: MINUTE });
    const tick = job.tick();
    await until(() => sends.waiting() === 2);
    // An acknowledge locks its alert first, then its attempts: the batch, taking the attempts
    // and then (its timeline events) a key-share lock on the alert, waited on it in a cycle.
    const ack = await acknowledging(
      (tx) => tx('alerts').where({ id: held }).forUpdate().first(),
      (tx) => cancelAttempts(tx, held),
    );
    sends.release();
    await until(async () => (await statuses(free)).includes('sent'));
    await ack.commit();
    expect(await tick).toBe(2);
    expect(await statuses(held)).toEqual(['due', 'sent']);
  });

  it('records each outcome alone when their batch fails, so one cannot cost the others theirs', async () => {
    const ids = [await raise(), await raise()];
    const base = createNotificationAttemptsRepository(h.db.knex as Knex);
    let failures = 1;
    const store: NotificationAttemptStore = {
      ...base,
      async finishAttempts(tx, finishes, options) {
        // The batch of two fails (a dropped connection, a row it could not take); alone each goes through.
        if (finishes.length > 1 && failures-- > 0) throw new Error('connection lost');
        return base.finishAttempts(tx, finishes, options);
      },
    };
    const sends = heldNotifier();
    const job = createNotificationSendJob({ store, notifier: sends.notifier, logger, intervalMs: 1000, leaseMs: MINUTE });
    const tick = job.tick();
    await until(() => sends.waiting() === 2);
    sends.release();
    expect(await tick).toBe(2);
    for (const id of ids) {
      expect(await statuses(id)).toEqual(['due', 'sent']);
      expect((await timeline(id)).filter((e) => e.kind === 'notification')).toHaveLength(1);
    }
  });

  it('sends an attempt committed due now when woken, not at its next poll', async () => {
    const job = createNotificationSendJob({
      store: createNotificationAttemptsRepository(h.db.knex as Knex),
      notifier,
      logger,
      intervalMs: 10 * MINUTE,
      leaseMs: MINUTE,
    });
    const waker = attemptsDueWaker(() => job.wake());
    job.start();
    try {
      // The job's first look found nothing (or earlier tests' leftovers); its next poll is 10 minutes away.
      await new Promise((resolve) => setTimeout(resolve, 200));
      sent.length = 0;
      const id = await raise();
      await until(() => sent.some((r) => r.alert.id === id));
    } finally {
      waker.stop();
      await job.stop();
    }
  });
});
