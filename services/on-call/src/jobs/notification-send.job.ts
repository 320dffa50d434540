import type { Logger } from '@firewatch/logger';
import type { NotificationRecorder } from '@firewatch/metrics';
import type { ClaimedAttempt, PagingStore } from '../domain/paging/paging.deps.js';
import type { NotificationOutcome, Notifier } from '../domain/paging/paging.ports.js';
import { MAX_TRIES, recordOutcome, retryAt, withoutAddress } from '../domain/paging/notification-outcome.js';
import { createPeriodicJob } from './periodic-job.js';

const BATCH = 50;

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
 * server or Twilio answering slowly holds no lock), all of a batch at once so one slow
 * channel does not hold up the others. Each outcome is recorded in its own transaction:
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

  async function tick(): Promise<number> {
    let sent = 0;
    for (;;) {
      const claimed = await options.store.claimAttempts(new Date(clock()), BATCH, options.leaseMs, MAX_TRIES);
      const results = await Promise.allSettled(claimed.map(sendOne));
      for (const r of results) if (r.status === 'rejected') options.logger.error('notification outcome not recorded', { err: r.reason });
      sent += claimed.length;
      if (claimed.length < BATCH) break;
    }
    if (sent) options.logger.info('notifications handled', { count: sent });
    return sent;
  }

  return createPeriodicJob({ name: 'notification send', intervalMs: options.intervalMs, logger: options.logger, tick });
}

export type NotificationSendJob = ReturnType<typeof createNotificationSendJob>;
