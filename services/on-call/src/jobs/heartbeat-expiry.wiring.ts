import type { Knex } from 'knex';
import type { Logger } from '@firewatch/logger';
import { alertIntakeOn } from '../alert-intake.wiring.js';
import { createHeartbeatExpiryRepository } from '../data/heartbeats.repository.js';
import type { AlertPagingDeps } from '../domain/alerts-in/alerts-in.deps.js';
import { createHeartbeatExpiry } from '../domain/heartbeats/heartbeat-expiry.js';
import { registry } from '../domain/registry.js';
import { createHeartbeatExpiryJob } from './heartbeat-expiry.job.js';

/** The heartbeat expiry job on its stores and the alert intake, which pages (main.ts; tests give it a clock). */
export function heartbeatExpiryJob(
  knex: Knex,
  options: { logger: Logger; intervalMs: number; lateAfterMs: number; now?: () => number; paging?: AlertPagingDeps },
) {
  const expireDue = createHeartbeatExpiry({
    store: createHeartbeatExpiryRepository(),
    intake: alertIntakeOn(knex, options.paging),
    heartbeats: registry.get('heartbeats'),
    lateAfterMs: options.lateAfterMs,
  });
  return createHeartbeatExpiryJob({ expireDue, logger: options.logger, intervalMs: options.intervalMs, now: options.now });
}
