import type { Logger } from '@firewatch/logger';
import type { ClaimedDelivery, DispatchRepository, JobOutcome } from './dispatch.types.js';

export interface DispatchLoopOptions {
  repository: DispatchRepository;
  logger: Logger;
  runJob(group: ClaimedDelivery[]): Promise<JobOutcome>;
  /** Endpoints sent to in parallel. */
  concurrency: number;
  claimBatch: number;
  leaseMs: number;
  pollIntervalMs: number;
}

/**
 * Claims due deliveries and runs one job per endpoint, up to `concurrency` at a time.
 * Wakes when told (new deliveries stored here, a job finished) and on a timer (retries
 * coming due, deliveries stored by other replicas, manual redeliveries).
 */
export function createDispatchLoop(opts: DispatchLoopOptions) {
  const active = new Set<Promise<void>>();
  // Endpoints this process is sending to: their job's end wakes the loop anyway.
  const sending = new Map<string, number>();
  let claiming: Promise<void> | null = null;
  let again = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  const stats = { sent: 0, failures: 0 };

  async function runGroup(group: ClaimedDelivery[]): Promise<void> {
    try {
      const outcome = await opts.runJob(group);
      await opts.repository.record(outcome);
      stats.sent += outcome.updates.length;
    } catch (err) {
      // The leases run out and the deliveries are claimed again: at least once.
      stats.failures++;
      opts.logger.error('delivery job failed', { endpoint_id: group[0].endpoint_id, error: (err as Error).message });
    }
  }

  async function claimLoop(): Promise<void> {
    again = false;
    while (!stopping && active.size < opts.concurrency) {
      let rows: ClaimedDelivery[];
      try {
        rows = await opts.repository.claim(opts.claimBatch, opts.leaseMs);
      } catch (err) {
        opts.logger.warn('claiming deliveries failed', { error: (err as Error).message });
        return;
      }
      if (!rows.length) return;
      const groups = new Map<string, ClaimedDelivery[]>();
      for (const row of rows) groups.set(row.endpoint_id, [...(groups.get(row.endpoint_id) ?? []), row]);
      for (const group of groups.values()) {
        const endpointId = group[0].endpoint_id;
        sending.set(endpointId, (sending.get(endpointId) ?? 0) + 1);
        const job: Promise<void> = runGroup(group).finally(() => {
          active.delete(job);
          const left = (sending.get(endpointId) ?? 1) - 1;
          if (left) sending.set(endpointId, left);
          else sending.delete(endpointId);
          wake();
        });
        active.add(job);
      }
      if (rows.length < opts.claimBatch) return;
    }
  }

  function wake(): void {
    if (stopping) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = claimLoop().finally(() => {
      claiming = null;
      if (again) wake();
    });
  }

  return {
    start() {
      timer = setInterval(wake, opts.pollIntervalMs);
      timer.unref();
      wake();
    },
    wake,
    /**
     * Wakes the loop for new deliveries of these endpoints, unless this process is
     * sending to every one of them: a claim could not take their deliveries before that
     * job ends (one endpoint's deliveries go out one after another), and its end wakes
     * the loop. Saves a claim per stored batch while an endpoint is busy.
     */
    wakeFor(endpointIds: readonly string[]) {
      if (endpointIds.every((id) => sending.has(id))) return;
      wake();
    },
    /** Stops claiming and waits for the jobs in flight (they stop starting attempts at once). */
    async stop() {
      stopping = true;
      clearInterval(timer);
      await claiming;
      await Promise.allSettled([...active]);
    },
    get stopping() {
      return stopping;
    },
    stats,
  };
}
