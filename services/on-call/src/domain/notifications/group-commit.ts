/** What {@link createGroupCommit} is given. */
export interface GroupCommitOptions<T> {
  /** The most items one `record` is handed. */
  maxBatch: number;
  /** Records items together (one transaction). */
  record(items: T[]): Promise<void>;
  /** Records one item alone: after `record` failed, each of its items gets its own chance. */
  recordOne(item: T): Promise<void>;
  onBatchFailed(err: unknown, size: number): void;
}

/**
 * Group commit (the send job's outcomes, action links): an item handed over while no batch
 * is being recorded starts one at the end of this turn of the event loop (no timer: nothing
 * waits when sends are few); those that come while one is under way go together in the next.
 * One batch at a time, so however many sends finish at once they hold one pool connection for
 * it. `record` resolves once the item's batch committed, and rejects only when its own retry
 * alone failed too.
 */
export function createGroupCommit<T>(options: GroupCommitOptions<T>) {
  const queue: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let flushing = false;

  async function flush() {
    flushing = true;
    // Items handed over in the same turn of the event loop (SMTP replies read together, a claim's sends) go in one batch.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (queue.length) {
        const batch = queue.splice(0, options.maxBatch);
        try {
          await options.record(batch.map((b) => b.item));
          for (const b of batch) b.resolve();
        } catch (err) {
          // One outcome the batch could not take (or a dropped connection) must not cost the others theirs.
          options.onBatchFailed(err, batch.length);
          for (const b of batch) await options.recordOne(b.item).then(b.resolve, b.reject);
        }
      }
    } finally {
      flushing = false;
    }
  }

  return {
    record(item: T): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!flushing) void flush();
      });
    },
  };
}
