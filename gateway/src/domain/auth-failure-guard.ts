import type { RateLimitStore } from '../data/rate-limit.store.js';

export interface AuthFailureGuardOptions {
  store: RateLimitStore;
  /** Failed credential resolutions allowed per client address and window. */
  limit: number;
  windowMs: number;
  now?: () => number;
  maxTracked?: number;
}

/**
 * Slows down credential guessing. Every bearer token the gateway has not cached costs the
 * auth service a lookup, so a client sending random tokens could load it at will. Failed
 * resolutions are counted per client address in the shared store; once an address is over
 * its budget, its uncached tokens are refused (429) until the window frees a slot. Tokens
 * already cached stay usable, so a valid client behind the same address keeps working.
 */
export function createAuthFailureGuard({ store, limit, windowMs, now = Date.now, maxTracked = 10_000 }: AuthFailureGuardOptions) {
  // Learnt from the shared count when this replica records a refused failure; no store
  // call is made on the success path.
  const blockedUntil = new Map<string, number>();

  return {
    /** Seconds until `address` may try uncached tokens again, or 0 when it may now. */
    retryAfter(address: string): number {
      const until = blockedUntil.get(address);
      if (until === undefined) return 0;
      const left = until - now();
      if (left > 0) return Math.ceil(left / 1000);
      blockedUntil.delete(address);
      return 0;
    },
    /** Counts one failed resolution; errors of the store are the caller's to log. */
    async recordFailure(address: string): Promise<void> {
      const hit = await store.hit(`authfail:${address}`, limit, windowMs);
      if (hit.allowed) return;
      if (blockedUntil.size >= maxTracked) blockedUntil.delete(blockedUntil.keys().next().value as string);
      blockedUntil.set(address, (hit.oldestMs ?? hit.nowMs) + windowMs - hit.nowMs + now());
    },
  };
}

export type AuthFailureGuard = ReturnType<typeof createAuthFailureGuard>;
