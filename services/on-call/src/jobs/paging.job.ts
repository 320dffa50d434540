import type { Logger } from '@firewatch/logger';
import type { PagingStore } from '../domain/paging/paging.deps.js';
import type { PagingEngine } from '../domain/paging/paging-engine.js';
import { createPeriodicJob, drainBatches } from './periodic-job.js';

/** Steps fired per transaction: a long catch-up holds no lock for long. */
const BATCH = 50;
/** A step that failed (a bug, a row its code cannot read) is tried again this much later, never blocking the others. */
export const FAILED_STEP_RETRY_MS = 5 * 60_000;

export interface PagingJobOptions {
  store: PagingStore;
  engine: PagingEngine;
  logger: Logger;
  /** How often it looks for due steps: the most a level waits past its delay. */
  intervalMs: number;
  now?: () => number;
}

/**
 * Fires due paging steps (the next level, a repeat, the end of an unanswered paging).
 * Stateless: the timers are alert_pagings rows, so a restart fires every step that fell
 * due while no replica ran, at once and marked late. Replicas racing on one step fire it
 * once: each claims due pagings FOR UPDATE SKIP LOCKED and moves their timer in the
 * claim's transaction, with the step's events and notification attempts. Each step runs
 * in its own savepoint: one that throws is undone alone and its timer moved on, so one bad
 * row neither rolls back the batch nor is claimed first again on every tick forever.
 */
export function createPagingJob(options: PagingJobOptions) {
  const clock = options.now ?? Date.now;

  function batch(now: Date) {
    return options.store.transaction(async (tx) => {
      const due = await options.store.claimDue(tx, now, BATCH);
      let late = 0;
      let busy = 0;
      for (const paging of due) {
        try {
          const done = await options.store.savepoint(tx, (sp) => options.engine.step(sp, paging, now));
          if (done.busy) busy++;
          if (done.late) late++;
        } catch (err) {
          const retryAt = new Date(now.getTime() + FAILED_STEP_RETRY_MS);
          options.logger.error('paging step failed; tried again later', { err, alert_paging_id: paging.id, retry_at: retryAt });
          await options.store.updatePaging(tx, paging.id, { next_step_at: retryAt });
          await options.store.recordEvent(tx, {
            team_id: paging.team_id,
            alert_id: paging.alert_id,
            kind: 'informational',
            action: 'updated',
            source: 'paging',
            user_id: null,
            details: `A paging step of ${paging.plan.policy.name} failed; it is tried again at ${retryAt.toISOString()}.`,
          });
        }
      }
      // A step left (its alert busy) is not fired: it is claimed again at the next tick.
      return { fired: due.length - busy, late };
    });
  }

  async function tick(): Promise<number> {
    const now = new Date(clock());
    const { fired, late } = await drainBatches(BATCH, () => batch(now));
    if (fired) options.logger.info('paging steps fired', { count: fired, late });
    return fired;
  }

  return createPeriodicJob({ name: 'paging', intervalMs: options.intervalMs, logger: options.logger, tick });
}

export type PagingJob = ReturnType<typeof createPagingJob>;
