import type { Logger } from '@firewatch/logger';

export interface RetentionJobOptions {
  prune(days: number): Promise<number>;
  /** Deliveries (and their attempts) older than this are deleted. */
  retentionDays: number;
  intervalMs: number;
  logger: Logger;
}

/**
 * Runs the retention prune once at start and then every `intervalMs`, never two runs of
 * one replica at once. Every replica runs it; their deletes skip each other's rows, so
 * running it several times at once only costs a few idle queries.
 */
export function createRetentionJob(opts: RetentionJobOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  const stats = { runs: 0, deleted: 0 };

  async function runOnce(): Promise<void> {
    try {
      const deleted = await opts.prune(opts.retentionDays);
      stats.runs++;
      stats.deleted += deleted;
      if (deleted) opts.logger.info('pruned old webhook deliveries', { deleted, retention_days: opts.retentionDays });
    } catch (err) {
      opts.logger.warn('pruning webhook deliveries failed', { error: (err as Error).message });
    }
  }

  function tick(): void {
    running ??= runOnce().finally(() => {
      running = null;
    });
  }

  return {
    start() {
      tick();
      timer = setInterval(tick, opts.intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
    /** Runs a prune now (or waits for the one in progress). */
    async runNow() {
      tick();
      await running;
    },
    stats,
  };
}
