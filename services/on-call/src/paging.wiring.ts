import type { Knex } from 'knex';
import type { Logger } from '@firewatch/logger';
import type { NotificationRecorder } from '@firewatch/metrics';
import { createAlertRoutingRepository } from './data/alert-routing.repository.js';
import { createNotificationAttemptsRepository, onAttemptsDue } from './data/notification-attempts.repository.js';
import { createPagingAttributes } from './data/paging-attributes.repository.js';
import { createPagingRepository } from './data/paging.repository.js';
import type { AlertPagingDeps } from './domain/alerts-in/alerts-in.deps.js';
import type { ShiftReadBounds } from './domain/on-call.deps.js';
import { createAlertRouter } from './domain/routing/alert-router.js';
import { escalationPlansOn } from './escalation-plans.wiring.js';
import { createPagingEngine, type PagingEngine } from './domain/paging/paging-engine.js';
import type { AlertRouter, EscalationPlans, Notifier } from './domain/paging/paging.ports.js';
import { createNotificationSendJob } from './jobs/notification-send.job.js';
import { createPagingJob } from './jobs/paging.job.js';

/** The sides the paging engine drives (paging.ports.ts): routing and the escalation plans. */
export interface PagingPorts {
  router: AlertRouter;
  plans: EscalationPlans;
}

/** The real sides: routes and routing rules as stored, the escalation plans over schedules' shifts. */
export function pagingPortsOn(logger?: Logger, shiftReads?: ShiftReadBounds): PagingPorts {
  return { router: createAlertRouter(createAlertRoutingRepository()), plans: escalationPlansOn(logger, shiftReads) };
}

/** A step (or notification) fired more than this after it was due is marked late. */
export const PAGING_LATE_AFTER_MS = 60_000;

/** The paging engine on its store (app.ts gives it to the alert writes, main.ts to the jobs). */
export function pagingEngineOn(knex: Knex, ports: PagingPorts, lateAfterMs = PAGING_LATE_AFTER_MS): PagingEngine {
  return createPagingEngine({ store: createPagingRepository(knex), ...ports, lateAfterMs });
}

/** What alert writes drive (start, stop, escalate) and alerts show (their paging attributes). */
export function alertPagingOn(knex: Knex, engine: PagingEngine): AlertPagingDeps {
  return {
    start: engine.start,
    stop: engine.stop,
    escalate: engine.escalate,
    expand: createPagingAttributes(knex),
  };
}

/** The paging job and the notification send job (main.ts runs them; tests tick them with a clock). */
export function pagingJobsOn(
  knex: Knex,
  options: {
    engine: PagingEngine;
    notifier: Notifier;
    logger: Logger;
    intervalMs: number;
    sendIntervalMs: number;
    /** How long a replica may take to send one notification before another takes it over. */
    sendLeaseMs: number;
    recorder?: NotificationRecorder;
    now?: () => number;
    /** The send job's own pool (NOTIFICATION_DB_POOL_MAX); `knex` when not given. */
    sendKnex?: Knex;
  },
) {
  const store = createPagingRepository(knex);
  return {
    steps: createPagingJob({ store, engine: options.engine, logger: options.logger, intervalMs: options.intervalMs, now: options.now }),
    sends: createNotificationSendJob({
      store: createNotificationAttemptsRepository(options.sendKnex ?? knex),
      notifier: options.notifier,
      logger: options.logger,
      intervalMs: options.sendIntervalMs,
      leaseMs: options.sendLeaseMs,
      recorder: options.recorder,
      now: options.now,
    }),
  };
}

/** Wakes the send job when this process commits an attempt due now; its poll stays the fallback. */
export function attemptsDueWaker(wake: () => void): { stop(): void } {
  return { stop: onAttemptsDue(wake) };
}
