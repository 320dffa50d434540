import ipaddr from 'ipaddr.js';
import type { RateLimitStore } from '../data/rate-limit.store.js';

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
 * The unit a client's failures are counted in: its IPv4 address, or the /64 of its IPv6
 * address, since one subscriber usually holds a whole /64 and could rotate through it.
 */
export function addressBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
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
  store, limit, windowMs, probeConcurrency = 4, probeQueue = 64, probeWaitMs = 2000, probesPerAddress = 4, now = Date.now, maxTracked = 10_000,
}: AuthFailureGuardOptions) {
  // Learnt from the shared count when this replica records a refused failure; no store
  // call is made on the success path.
  const blockedUntil = new Map<string, number>();
  let running = 0;
  const waiting: (() => void)[] = [];
  const perAddress = new Map<string, number>();

  function release() {
    const nextInLine = waiting.shift();
    if (nextInLine) nextInLine();
    else running--;
  }

  function slot(): Promise<boolean> {
    if (running < probeConcurrency) {
      running++;
      return Promise.resolve(true);
    }
    if (waiting.length >= probeQueue) return Promise.resolve(false);
    return new Promise((resolve) => {
      const take = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(take), 1);
        resolve(false);
      }, probeWaitMs);
      waiting.push(take);
    });
  }

  return {
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
        if (!(await slot())) return 'busy';
        try {
          return await lookup();
        } finally {
          release();
        }
      } finally {
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left > 0) perAddress.set(address, left);
        else perAddress.delete(address);
      }
    },
  };
}

export type AuthFailureGuard = ReturnType<typeof createAuthFailureGuard>;
