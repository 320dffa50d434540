import type { Logger } from '@firewatch/logger';
import { serialize } from '@firewatch/resource-kit';
import { alerts } from '../domain/alerts-in/alerts.resource.js';
import type { AlertPagingDeps } from '../domain/alerts-in/alerts-in.deps.js';
import type { AlertRetriggersRepository } from '../data/alert-retriggers.repository.js';
import { createPeriodicJob, drainBatches } from './periodic-job.js';

/** Timers fired per transaction: a long catch-up holds no lock (and no outbox insert) for long. */
const BATCH = 100;

export interface AlertRetriggerJobOptions {
  store: AlertRetriggersRepository;
  logger: Logger;
  /** How often it looks for due timers: the most a re-trigger waits past its time. */
  intervalMs: number;
  /** A timer fired more than this after it was due is marked late (after downtime). */
  lateAfterMs: number;
  now?: () => number;
  /** Pages the re-triggered alert again from level 1 (docs/paging.md); absent: nothing pages. */
  paging?: Pick<AlertPagingDeps, 'start'>;
}

/**
 * Triggers acknowledged alerts again when their re-trigger timer (set at acknowledgment
 * from the team's re-trigger rules, docs/on-call.md "Re-trigger") is due, and snoozed
 * (deferred) alerts when their snooze ends. Stateless: the
 * timers are on the alerts, so a restart fires every timer that fell due while no replica
 * ran, at once and marked late, as `shift.started` does. Replicas racing on one timer
 * fire it once: each claims due alerts FOR UPDATE SKIP LOCKED and writes the status,
 * cleared timer, alert event and `alert.retriggered` in the claim's transaction.
 */
export function createAlertRetriggerJob(options: AlertRetriggerJobOptions) {
  const clock = options.now ?? Date.now;

  /** Fires one batch of due timers; returns how many (and how many late). */
  function batch(now: Date) {
    return options.store.transaction(async (tx) => {
      const due = await options.store.claimDue(tx, now, BATCH);
      let late = 0;
      for (const alert of due) {
        const dueAt = alert.retrigger_at as Date;
        const isLate = now.getTime() - dueAt.getTime() > options.lateAfterMs;
        if (isLate) late++;
        const ruleId = (alert.retrigger_rule_id as string | null) ?? null;
        const snoozed = alert.status === 'deferred';
        const why = snoozed ? 'Snooze ended' : `Re-triggered by alert re-trigger rule ${ruleId}`;
        const row = await options.store.retrigger(tx, String(alert.id), now);
        await options.paging?.start(tx, row, now);
        await options.store.recordEvent(tx, {
          team_id: Number(alert.team_id),
          alert_id: String(alert.id),
          kind: 'status_update',
          action: 'retriggered',
          source: snoozed ? 'snooze' : 'alert_retrigger_rule',
          user_id: null,
          details: `${why}, due at ${dueAt.toISOString()}${isLate ? ' (late: fired after downtime)' : ''}.`,
        });
        await options.store.writeEvent(tx, {
          type: 'alert.retriggered',
          team_id: Number(alert.team_id),
          data: {
            ...serialize(alerts, row),
            meta: { late: isLate, snoozed, alert_retrigger_rule_id: ruleId, due_at: dueAt.toISOString() },
          },
          occurred_at: dueAt,
        });
      }
      return { fired: due.length, late };
    });
  }

  async function tick(): Promise<number> {
    const now = new Date(clock());
    const { fired, late } = await drainBatches(BATCH, () => batch(now));
    await options.store.clearStale(now);
    if (fired) options.logger.info('alerts re-triggered', { count: fired, late });
    return fired;
  }

  return createPeriodicJob({ name: 'alert re-trigger', intervalMs: options.intervalMs, logger: options.logger, tick });
}

export type AlertRetriggerJob = ReturnType<typeof createAlertRetriggerJob>;
