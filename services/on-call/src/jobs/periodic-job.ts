import type { Logger } from '@firewatch/logger';

/** A job that runs `tick` now and then every `intervalMs` after the previous tick ends. */
export interface PeriodicJob<T> {
  /** One look, as the timer runs it (tests and catch-up). */
  tick: () => Promise<T>;
  start(): void;
  /** Stops the timer and waits for a tick under way. */
  stop(): Promise<void>;
  /** Runs the next tick now rather than at the end of its interval, when the job is waiting for it; a tick under way is left alone. */
  wake(): void;
}

/**
 * The one timer loop of on-call's jobs: ticks never overlap (the next is scheduled when
 * one ends), a failed tick is logged and retried at the next interval, and `stop` waits
 * for the tick under way so a shutdown never cuts a transaction short.
 */
export function createPeriodicJob<T>(options: {
  name: string;
  intervalMs: number;
  logger: Logger;
  tick: () => Promise<T>;
}): PeriodicJob<T> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;
  let waiting = false;

  function loop(delay: number) {
    waiting = true;
    timer = setTimeout(() => {
      waiting = false;
      running = options
        .tick()
        .catch((err: unknown) => options.logger.error(`${options.name} tick failed; retrying next interval`, { err }))
        .finally(() => {
          if (!stopped) loop(options.intervalMs);
        });
    }, delay);
  }

  return {
    tick: options.tick,
    start() {
      if (!stopped) return;
      stopped = false;
      loop(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    wake() {
      if (stopped || !waiting) return;
      clearTimeout(timer);
      loop(0);
    },
  };
}

/**
 * Runs `batch` (one transaction of at most `size` due rows) until one finds fewer: a backlog
 * left by downtime drains within one tick rather than one batch an interval.
 */
export async function drainBatches(size: number, batch: () => Promise<{ fired: number; late: number }>) {
  let fired = 0;
  let late = 0;
  for (;;) {
    const done = await batch();
    fired += done.fired;
    late += done.late;
    if (done.fired < size) return { fired, late };
  }
}
