import type { Logger } from '@firewatch/logger';
import type { NotificationRecorder } from '@firewatch/metrics';
import type { ClaimedAttempt, NotificationAttemptStore } from '../domain/paging/paging.deps.js';
import type { NotificationOutcome, Notifier } from '../domain/paging/paging.ports.js';
import { createGroupCommit } from '../domain/notifications/group-commit.js';
import { MAX_TRIES, recordOutcomes, retryAt, withoutAddress, type FinishedSend } from '../domain/paging/notification-outcome.js';
import { createPeriodicJob } from './periodic-job.js';

/** Sends one replica has under way at most; a slot that frees is filled by the next due attempt. */
const IN_FLIGHT = 100;
/** Outcomes recorded in one transaction at most. */
const RECORD_BATCH = 100;

export interface NotificationSendJobOptions {
  store: NotificationAttemptStore;
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
 * more at once after a full claim (or as a send frees a slot when all were taken), and looks
 * again every `intervalMs` while some are under way, so one slow channel never holds up the
 * others. The tick ends when nothing it claimed is in flight and no wake came; `stop` claims no more and waits for the sends under way. `wake` (an attempt
 * committed due now by this process: main.ts's attemptsDueWaker) claims at once rather than at the next look.
 *
 * Outcomes are recorded in batches (group-commit.ts): those that finish while one batch
 * is being written go together in the next transaction — the attempts, their alert events
 * and `alert.notification`s, in two statements — and a send's slot frees once its outcome is
 * committed. A failure is retried with backoff (notification-outcome.ts) until its tries run
 * out. A crash between a send and its batch's commit leaves the attempt `sending` until its
 * lease runs out, then another replica sends it again: at least once, as with one outcome per
 * transaction.
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
    await outcomes.record({ attempt, outcome, retry, at });
    return outcome.status;
  }

  async function recordOne(send: FinishedSend) {
    await options.store.transaction((tx) => recordOutcomes(options.store, tx, [send], { skipLocked: false }));
  }

  const outcomes = createGroupCommit<FinishedSend>({
    maxBatch: RECORD_BATCH,
    // Rows an acknowledge (or another replica) holds are skipped rather than waited on while
    // the batch holds the others' locks, then each is recorded on its own, waiting as before.
    async record(sends) {
      const busy = await options.store.transaction((tx) => recordOutcomes(options.store, tx, sends, { skipLocked: true }));
      for (const send of busy) await recordOne(send);
    },
    recordOne,
    onBatchFailed: (err, size) =>
      options.logger.warn('notification outcomes not recorded together; recording each alone', { err, count: size }),
  });

  /** Set by `wake` until the next claim; `nudge` ends a wait under way. */
  let woken = false;
  let nudge: (() => void) | undefined;

  /** The first of a send finishing, a wake or `ms` passing (new attempts may have fallen due). */
  function settleOrWait(inFlight: Set<Promise<void>>, ms: number): Promise<void> {
    // A wake with every slot taken waits for a send to finish like any other.
    if (woken && inFlight.size < IN_FLIGHT) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const wait = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      nudge = resolve;
    });
    return Promise.race([...inFlight, wait]).finally(() => {
      clearTimeout(timer);
      nudge = undefined;
    });
  }

  let stopping = false;

  async function tick(): Promise<number> {
    const inFlight = new Set<Promise<void>>();
    let handled = 0;
    try {
      for (;;) {
        const free = IN_FLIGHT - inFlight.size;
        // A wake before this claim is answered by it (the wake comes after the attempt's commit).
        if (free > 0) woken = false;
        const claimedAt = performance.now();
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
        // A full claim may have left more due: claim again at once while slots are free.
        if (free > 0 && claimed.length === free) continue;
        // Every slot taken: claim again once a send frees one.
        if (free === 0) {
          await settleOrWait(inFlight, options.intervalMs);
          continue;
        }
        // Nothing was left due at this claim, and a send finishing makes nothing due: while
        // sends run, the next claim waits for a wake (one that came while the claim ran is
        // answered at once) or for the next look, an interval after this one. One claim a
        // page, where each send finishing claimed again.
        while (inFlight.size > 0 && !woken) {
          const wait = options.intervalMs - (performance.now() - claimedAt);
          if (wait <= 0 && !stopping) break;
          await settleOrWait(inFlight, stopping ? options.intervalMs : wait);
        }
        // The sends done and no wake: the periodic job looks again an interval from now.
        if (inFlight.size === 0 && (stopping || !woken)) break;
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
    /** An attempt was committed due now: claim it now, in the tick under way or by starting one. */
    wake() {
      woken = true;
      nudge?.();
      job.wake();
    },
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
