/** Delays before retry 1, 2, ... after a failed attempt: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export interface RetryPolicy {
  schedule: readonly number[];
  /** Fraction of each delay randomly added or removed (0–1). Default 0.2. */
  jitter?: number;
  /** Upper bound on a receiver's Retry-After. Default 10 h. */
  maxRetryAfterMs?: number;
}

/**
 * Reads `Retry-After` (delta seconds or an HTTP date) as milliseconds from `now`;
 * null when absent or unreadable. Dates in the past give 0.
 */
export function parseRetryAfter(value: string | undefined | null, now = Date.now()): number | null {
  if (value === undefined || value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Delay before the next attempt after the `failures`-th consecutive failure, or null
 * when the schedule is exhausted (give up). The scheduled delay is spread by ±jitter;
 * a `Retry-After` from the receiver pushes the retry later (never earlier), clamped to
 * `maxRetryAfterMs`.
 */
export function retryDelay(failures: number, policy: RetryPolicy, retryAfterMs: number | null = null, random = Math.random): number | null {
  if (failures < 1 || failures > policy.schedule.length) return null;
  const base = policy.schedule[failures - 1];
  const jitter = policy.jitter ?? 0.2;
  const spread = Math.round(base * (1 + jitter * (random() * 2 - 1)));
  const asked = retryAfterMs === null ? 0 : Math.min(retryAfterMs, policy.maxRetryAfterMs ?? 36_000_000);
  return Math.max(0, spread, asked);
}
