import { BusyError, createConcurrencyLimit } from '@firewatch/concurrency';
import type { RateLimitStore } from './rate-limit.store.js';

export interface AuthFailureGuardOptions {
  store: RateLimitStore;
  /** Failed credential resolutions allowed per client address and window. */
  limit: number;
  windowMs: number;
  /** Look-ups for blocked addresses that may run at once, across all of them. */
  probeConcurrency?: number;
  /** How many such look-ups may wait for a slot, and for how long, before a 429. */
  probeQueue?: number;
  probeWaitMs?: number;
  /** Look-ups one address may have running or waiting, so a flood starves only itself. */
  probesPerAddress?: number;
  now?: () => number;
  maxTracked?: number;
}

/**
 * Slows down credential guessing. Every bearer token the gateway has not cached costs the
 * auth service a lookup, so a client sending random tokens could load it at will. Failed
 * resolutions are counted per client address in the shared store. Once an address is over
 * its budget, its uncached tokens are still looked up, but only a few at a time across all
 * blocked addresses and a few per address: a credential that resolves passes (a valid
 * client behind the same NAT keeps working, unless that very address floods at the
 * moment, when it is told to retry in a second), while a guesser's load on the auth
 * service stays bounded and other blocked addresses keep their share.
 */
export function createAuthFailureGuard({
  store,
  limit,
  windowMs,
  probeConcurrency = 4,
  probeQueue = 64,
  probeWaitMs = 2000,
  probesPerAddress = 4,
  now = Date.now,
  maxTracked = 10_000,
}: AuthFailureGuardOptions) {
  // Learnt from the shared count when this replica records a refused failure; no store
  // call is made on the success path.
  const blockedUntil = new Map<string, number>();
  // Look-ups for blocked addresses: a few at a time overall, a few per address.
  const lookups = createConcurrencyLimit({ concurrency: probeConcurrency, queue: probeQueue, waitMs: probeWaitMs });
  const perAddress = new Map<string, number>();

  return {
    /** Whether any address is blocked (or was, until asked about): when not, none needs to be worked out. */
    blocksAny(): boolean {
      return blockedUntil.size > 0;
    },
    /** Seconds until `address` is no longer blocked, or 0 when it is not. */
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
    /**
     * Runs a look-up for a blocked address once one of the few slots is free; 'busy'
     * when none frees in time, or when `address` already has its share running or waiting.
     */
    async probe<T>(address: string, lookup: () => Promise<T>): Promise<T | 'busy'> {
      const mine = perAddress.get(address) ?? 0;
      if (mine >= probesPerAddress) return 'busy';
      perAddress.set(address, mine + 1);
      try {
        return await lookups.run(lookup);
      } catch (err) {
        if (err instanceof BusyError) return 'busy';
        throw err;
      } finally {
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left > 0) perAddress.set(address, left);
        else perAddress.delete(address);
      }
    },
  };
}

export type AuthFailureGuard = ReturnType<typeof createAuthFailureGuard>;
