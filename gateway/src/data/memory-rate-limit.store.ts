import { performance } from 'node:perf_hooks';
import type { RateLimitHit, RateLimitStore } from '../domain/rate-limit.store.js';

interface Log {
  /** Accepted request times, oldest first. */
  times: number[];
  windowMs: number;
}

export interface MemoryRateLimitStoreOptions {
  /** Epoch milliseconds; monotonic by default so a clock step cannot reorder the log. */
  now?: () => number;
  /** How often logs whose every entry has expired are dropped. */
  sweepIntervalMs?: number;
}

const monotonicNow = () => performance.timeOrigin + performance.now();

/**
 * The same sliding-window log as the Redis store, kept in this process. It serves a
 * single replica (REDIS_URL unset) and unit tests; replicas using it do not share counts.
 */
export function createMemoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): RateLimitStore {
  const now = options.now ?? monotonicNow;
  const logs = new Map<string, Log>();

  const sweep = setInterval(() => {
    const t = now();
    for (const [key, log] of logs) {
      const newest = log.times[log.times.length - 1];
      if (newest === undefined || newest <= t - log.windowMs) logs.delete(key);
    }
  }, options.sweepIntervalMs ?? 60_000);
  sweep.unref();

  /** The log of `key` with the entries that have left the window dropped. */
  function current(key: string, windowMs: number, t: number): number[] {
    let log = logs.get(key);
    if (!log) logs.set(key, (log = { times: [], windowMs }));
    log.windowMs = windowMs;
    const times = log.times;
    // An entry made exactly one window ago has left the window, as in the Redis script.
    const cutoff = t - windowMs;
    let expired = 0;
    while (expired < times.length && times[expired] <= cutoff) expired++;
    if (expired > 0) times.splice(0, expired);
    return times;
  }

  const store: RateLimitStore = {
    async hit(key, limit, windowMs) {
      return (await store.hitAll([{ key, limit }], windowMs))[0];
    },
    async hitAll(wanted, windowMs): Promise<RateLimitHit[]> {
      const t = now();
      const all = wanted.map(({ key, limit }) => {
        const times = current(key, windowMs, t);
        return { times, allowed: times.length < limit };
      });
      const counted = all.every((l) => l.allowed);
      return all.map(({ times, allowed }) => {
        if (counted) times.push(t);
        return { allowed, used: times.length, oldestMs: times.length > 0 ? times[0] : null, nowMs: t };
      });
    },
    async ping() {},
    async close() {
      clearInterval(sweep);
      logs.clear();
    },
  };
  return store;
}
