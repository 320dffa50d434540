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
 * Wakes when told (new deliveries stored here, a job finished that leaves some due) and
 * on a timer (retries coming due, deliveries stored by other replicas, manual redeliveries).
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
  // Endpoints with deliveries stored here while they were being sent to (wakeFor left them to the job's end).
  const deferred = new Set<string>();
  // Endpoints with deliveries stored here while a claim was under way: that claim may have
  // started one of their jobs without them (stored after its snapshot), and the claims after
  // it skip them while that job holds its endpoint, so they are deferred to its end too.
  const storedWhileClaiming = new Set<string>();
  // The last claim left deliveries that may be due (concurrency full, or the claim failed).
  let leftDue = false;

  /** Runs a job; true when it left nothing due: every delivery sent, none released or to be retried. */
  async function runGroup(group: ClaimedDelivery[]): Promise<boolean> {
    try {
      const outcome = await opts.runJob(group);
      await opts.repository.record(outcome);
      stats.sent += outcome.updates.length;
      return !outcome.released.length && outcome.updates.every((u) => u.status !== 'pending');
    } catch (err) {
      // The leases run out and the deliveries are claimed again: at least once.
      stats.failures++;
      opts.logger.error('delivery job failed', { endpoint_id: group[0].endpoint_id, error: (err as Error).message });
      return false;
    }
  }

  async function claimLoop(): Promise<void> {
    again = false;
    leftDue = false;
    while (!stopping) {
      if (active.size >= opts.concurrency) {
        leftDue = true;
        return;
      }
      let rows: ClaimedDelivery[];
      storedWhileClaiming.clear();
      try {
        rows = await opts.repository.claim(opts.claimBatch, opts.leaseMs);
      } catch (err) {
        opts.logger.warn('claiming deliveries failed', { error: (err as Error).message });
        leftDue = true;
        return;
      }
      if (!rows.length) return;
      // A full batch may have left more of its endpoints' deliveries due (each endpoint's come one job at a time).
      const full = rows.length >= opts.claimBatch;
      const groups = new Map<string, ClaimedDelivery[]>();
      for (const row of rows) groups.set(row.endpoint_id, [...(groups.get(row.endpoint_id) ?? []), row]);
      for (const group of groups.values()) {
        const endpointId = group[0].endpoint_id;
        if (storedWhileClaiming.has(endpointId)) deferred.add(endpointId);
        sending.set(endpointId, (sending.get(endpointId) ?? 0) + 1);
        const job: Promise<void> = runGroup(group).then((quiet) => {
          active.delete(job);
          const left = (sending.get(endpointId) ?? 1) - 1;
          if (left) sending.set(endpointId, left);
          else sending.delete(endpointId);
          // A claim now finds something only if this job left deliveries due, deliveries of its
          // endpoint were stored meanwhile, or a claim left some: otherwise it was an empty claim
          // a job (retries, other replicas' and manual deliveries wait for the timer, as when idle).
          if (deferred.delete(endpointId) || !quiet || full || leftDue) wake();
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
      for (const id of endpointIds) if (sending.has(id)) deferred.add(id);
      if (claiming) for (const id of endpointIds) storedWhileClaiming.add(id);
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
