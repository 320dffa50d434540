/** Capped exponential back-off with jitter. */
export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  /** Fraction of the delay randomly added or removed (0–1). */
  jitter?: number;
}

/**
 * Delay before retry number `attempt` (1-based): `initialMs * 2^(attempt-1)`, capped at
 * `maxMs`, spread by ±`jitter` so that replicas which lost the broker together do not
 * reconnect together. Never exceeds `maxMs`.
 */
export function backoffDelay(attempt: number, { initialMs = 250, maxMs = 30_000, jitter = 0.2 }: BackoffOptions = {}): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
  const spread = base * jitter * (Math.random() * 2 - 1);
  return Math.max(0, Math.min(maxMs, Math.round(base + spread)));
}

/** A sleep that `cancel()` ends early (used so `stop()` never waits out a back-off). */
export function cancellableSleep(ms: number): { done: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let resolve!: () => void;
  const done = new Promise<void>((r) => {
    resolve = r;
    timer = setTimeout(r, ms);
  });
  return {
    done,
    cancel() {
      clearTimeout(timer);
      resolve();
    },
  };
}
