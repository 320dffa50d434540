import type { Logger } from '@firewatch/logger';
import type { IntakeEvent, IntakeRepository, StoredDeliveries } from '../domain/dispatch.types.js';

interface Pending {
  event: IntakeEvent;
  resolve(): void;
  reject(err: Error): void;
}

/**
 * The queue consumer's handler. Events arriving while a batch is being written are
 * gathered into the next batch, so one INSERT stores many events and batches are
 * written one after another, in arrival order. Each handler call resolves (and its
 * message is acked) only once its batch is committed; a failed batch rejects all of
 * its events, which the broker then redelivers.
 *
 * A batch starts at least `minIntervalMs` after the one before it started (unless a
 * whole batch is waiting): under a steady stream the events of that interval share one
 * INSERT, one commit (a WAL flush) and one `multiple` ack, where each socket read of the
 * broker's made its own; an event after a quiet interval is written at once.
 */
export function createEventIntake(deps: {
  repository: IntakeRepository;
  logger: Logger;
  maxBatch?: number;
  /** Least time between the starts of two batches (default 0: each as soon as the last is written). */
  minIntervalMs?: number;
  /** Called with what a committed batch stored (only when it stored something). */
  onStored(stored: StoredDeliveries): void;
}) {
  const maxBatch = deps.maxBatch ?? 500;
  const minIntervalMs = deps.minIntervalMs ?? 0;
  let queue: Pending[] = [];
  let writing: Promise<void> | null = null;
  let lastStart = -Infinity;
  // Ends a batch's wait early: once a whole batch is waiting, the consumer holds its whole
  // prefetch and the broker sends nothing more until it is written.
  let wake: (() => void) | null = null;

  async function drain(): Promise<void> {
    while (queue.length) {
      // The events of the next interval join this batch, unless a whole batch is waiting already.
      const wait = queue.length < maxBatch ? lastStart + minIntervalMs - performance.now() : 0;
      if (wait > 0) {
        await new Promise<void>((r) => {
          const timer = setTimeout(r, wait);
          wake = () => {
            clearTimeout(timer);
            r();
          };
        });
        wake = null;
      }
      lastStart = performance.now();
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const stored = await deps.repository.store(batch.map((p) => p.event));
        for (const p of batch) p.resolve();
        if (stored.count) deps.onStored(stored);
      } catch (err) {
        deps.logger.warn('storing deliveries failed', { events: batch.length, error: (err as Error).message });
        for (const p of batch) p.reject(err as Error);
      }
    }
  }

  function kick(): void {
    if (writing) return;
    // setImmediate lets the other messages of this socket read join the batch first.
    writing = new Promise<void>((r) => setImmediate(r)).then(drain).finally(() => {
      writing = null;
      if (queue.length) kick();
    });
  }

  return {
    handle(event: IntakeEvent): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        queue.push({ event, resolve, reject });
        if (wake && queue.length >= maxBatch) wake();
        kick();
      });
    },
    /** Resolves when nothing is waiting to be written. */
    async idle(): Promise<void> {
      while (writing) await writing;
    },
  };
}
