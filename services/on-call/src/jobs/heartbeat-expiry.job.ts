import type { Logger } from '@firewatch/logger';
import { createPeriodicJob } from './periodic-job.js';

/** Heartbeats expired per transaction: a batch holds its row locks only that long. */
const BATCH = 100;

export interface HeartbeatExpiryJobOptions {
  /** domain/heartbeats/heartbeat-expiry.ts, bound to its store and the intake. */
  expireDue(now: number, limit: number): Promise<{ id: string; late: boolean }[]>;
  logger: Logger;
  /** How often it looks for expired heartbeats: the most an expiry waits for its alert. */
  intervalMs: number;
  now?: () => number;
}

/**
 * Raises the alert of every heartbeat not pinged in time. Stateless: the timers are the
 * rows' `expires_at`, so after downtime the first tick expires everything that fell due
 * meanwhile (marked late), and replicas share the work through SKIP LOCKED.
 */
export function createHeartbeatExpiryJob(options: HeartbeatExpiryJobOptions) {
  const clock = options.now ?? Date.now;

  async function tick(): Promise<number> {
    let count = 0;
    for (;;) {
      const expired = await options.expireDue(clock(), BATCH);
      count += expired.length;
      if (expired.length)
        options.logger.info('heartbeat.expired raised', { count: expired.length, late: expired.filter((e) => e.late).length });
      if (expired.length < BATCH) return count;
    }
  }

  return createPeriodicJob({ name: 'heartbeat expiry', intervalMs: options.intervalMs, logger: options.logger, tick });
}
