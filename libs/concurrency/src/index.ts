import { ServiceUnavailableError } from '@firewatch/errors';

export interface ConcurrencyLimitOptions {
  /** Tasks running at once. */
  concurrency: number;
  /** Tasks allowed to wait for a slot; more are refused at once. */
  queue: number;
  /** How long a task waits for a slot before it is refused. */
  waitMs: number;
}

/** Runs tasks with at most `concurrency` in flight at once. */
export interface ConcurrencyLimit {
  /** Runs `task` in a slot; throws {@link BusyError} when no slot frees in time. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** No slot freed in time: a 503 with `Retry-After: 1` unless the caller maps it otherwise. */
export class BusyError extends ServiceUnavailableError {
  constructor() {
    super('The server is busy. Try again in a moment.', { headers: { 'Retry-After': '1' } });
  }
}

/**
 * A small FIFO semaphore. Waiters are bounded in number and in time, so a flood is
 * refused quickly instead of piling up requests (and their memory) behind the slots.
 */
export function createConcurrencyLimit(options: ConcurrencyLimitOptions): ConcurrencyLimit {
  let running = 0;
  const waiting: { grant: () => void; timer: NodeJS.Timeout }[] = [];
  const busy = () => new BusyError();

  function release(): void {
    const next = waiting.shift();
    if (!next) {
      running--;
      return;
    }
    clearTimeout(next.timer);
    next.grant(); // the slot passes straight to the next waiter
  }

  async function acquire(): Promise<void> {
    if (running < options.concurrency) {
      running++;
      return;
    }
    if (waiting.length >= options.queue) throw busy();
    await new Promise<void>((resolve, reject) => {
      const entry = {
        grant: resolve,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(entry), 1);
          reject(busy());
        }, options.waitMs),
      };
      waiting.push(entry);
    });
  }

  return {
    async run(task) {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
