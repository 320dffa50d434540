import type { Logger } from '@firewatch/logger';
import type { NotificationRecorder } from '@firewatch/metrics';
import type { ClaimedAttempt, PagingStore } from '../domain/paging/paging.deps.js';
import type { NotificationOutcome, Notifier } from '../domain/paging/paging.ports.js';
import { MAX_TRIES, recordOutcome, retryAt, withoutAddress } from '../domain/paging/notification-outcome.js';
import { createPeriodicJob } from './periodic-job.js';

/** Sends one replica has under way at most; a slot that frees is filled by the next due attempt. */
const IN_FLIGHT = 100;

export interface NotificationSendJobOptions {
  store: PagingStore;
  notifier: Notifier;
  logger: Logger;
  intervalMs: number;
  /** How long a claimed attempt is a replica's to send; after it another replica takes it over. */
  leaseMs: number;
  /** Counts each attempt's outcome and how late it was handed to its channel (`/metrics`). */
  recorder?: NotificationRecorder;
  now?: () => number;
}

/**
 * Sends due notification attempts through the Notifier, outside any transaction (an SMTP
 * server or Twilio answering slowly holds no lock), up to IN_FLIGHT at once: the tick claims
 * more as sends finish, and looks again every `intervalMs` while some are under way, so one
 * slow channel never holds up the others. The tick ends when nothing is due and nothing is
 * in flight; `stop` claims no more and waits for the sends under way. Each outcome is recorded in its own transaction:
 * the attempt, an alert event and `alert.notification`; a failure is retried with backoff
 * (notification-outcome.ts) until its tries run out.
 */
export function createNotificationSendJob(options: NotificationSendJobOptions) {
  const clock = options.now ?? Date.now;

  async function send(attempt: ClaimedAttempt): Promise<NotificationOutcome> {
    return attempt.abandoned
      ? { status: 'failed', reason: `its sender stopped before reporting on each of ${MAX_TRIES} tries: given up` }
      : attempt.unreachable
        ? { status: 'skipped', reason: attempt.unreachable }
        : await options.notifier
            .send({
              team_id: attempt.team_id,
              alert: attempt.alert,
              user: attempt.user,
              channel: attempt.channel,
              address: attempt.address,
              contact_method_id: attempt.contact_method_id,
              attempt_id: attempt.id,
              notification_type: attempt.notification_type,
            })
            .catch((err: unknown) => ({ status: 'failed' as const, reason: err instanceof Error ? err.message : String(err) }));
  }

  async function sendOne(attempt: ClaimedAttempt) {
    const outcome = withoutAddress(await send(attempt), attempt.address);
    const at = new Date(clock());
    options.recorder?.attempt(attempt.channel, outcome.status, (at.getTime() - attempt.due_at.getTime()) / 1000);
    const retry = outcome.status === 'failed' ? retryAt(attempt.tries, at) : null;
    await options.store.transaction(async (tx) => {
      const finished = await options.store.finishAttempt(tx, attempt.id, { ...outcome, retryAt: retry }, at);
      if (finished) await recordOutcome(options.store, tx, attempt, outcome, finished.retryAt, at);
    });
    return outcome.status;
  }

  /** The first of a send finishing or `ms` passing (new attempts may have fallen due). */
  function settleOrWait(inFlight: Set<Promise<void>>, ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const wait = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    return Promise.race([...inFlight, wait]).finally(() => clearTimeout(timer));
  }

  let stopping = false;

  async function tick(): Promise<number> {
    const inFlight = new Set<Promise<void>>();
    let handled = 0;
    try {
      for (;;) {
        const free = IN_FLIGHT - inFlight.size;
        const claimed =
          stopping || free === 0 ? [] : await options.store.claimAttempts(new Date(clock()), free, options.leaseMs, MAX_TRIES);
        for (const attempt of claimed) {
          const sending: Promise<void> = sendOne(attempt)
            .then(
              () => undefined,
              (err: unknown) => void options.logger.error('notification outcome not recorded', { err }),
            )
            .finally(() => inFlight.delete(sending));
          inFlight.add(sending);
        }
        handled += claimed.length;
        if (inFlight.size === 0) break;
        // A full claim may have left more due: claim again at once while slots are free.
        if (claimed.length < free || free === 0) await settleOrWait(inFlight, options.intervalMs);
      }
    } finally {
      await Promise.allSettled(inFlight);
    }
    if (handled) options.logger.info('notifications handled', { count: handled });
    return handled;
  }

  const job = createPeriodicJob({ name: 'notification send', intervalMs: options.intervalMs, logger: options.logger, tick });
  return {
    ...job,
    start() {
      stopping = false;
      job.start();
    },
    async stop() {
      stopping = true;
      await job.stop();
    },
  };
}

export type NotificationSendJob = ReturnType<typeof createNotificationSendJob>;
