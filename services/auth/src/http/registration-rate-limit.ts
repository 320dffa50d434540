import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import { clientAddress } from '@firewatch/client-address';

const WINDOW_MS = 3_600_000;
const BODY = { error: 'Rate limit exceeded. Try again later.' };

/** Where the registrations of the last hour are counted: Redis for replicas, else memory. */
export interface RegistrationCounter {
  /** Reserves a slot for `ip`; false (and the seconds until one frees) when the hour is full. */
  reserve(ip: string, id: string, limit: number, now: number): Promise<{ ok: boolean; retryAfter: number }>;
  release(ip: string, id: string): Promise<void>;
}

// Sliding log in a sorted set: drop entries older than the window, then add ours only
// when fewer than `limit` remain. One script, so replicas never over-admit.
const RESERVE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2])}
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, 0}`;

export function redisRegistrationCounter(redis: Redis, prefix: string): RegistrationCounter {
  const key = (ip: string) => `${prefix}oauth:register:${ip}`;
  return {
    async reserve(ip, id, limit, now) {
      const [ok, oldest] = (await redis.eval(RESERVE, 1, key(ip), now, WINDOW_MS, limit, id)) as [number, number];
      return { ok: ok === 1, retryAfter: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)) };
    },
    async release(ip, id) {
      await redis.zrem(key(ip), id);
    },
  };
}

export function memoryRegistrationCounter(): RegistrationCounter {
  const log = new Map<string, Map<string, number>>();
  return {
    async reserve(ip, id, limit, now) {
      const entries = log.get(ip) ?? new Map<string, number>();
      for (const [k, at] of entries) if (at <= now - WINDOW_MS) entries.delete(k);
      log.set(ip, entries);
      if (entries.size >= limit) {
        const oldest = Math.min(...entries.values());
        return { ok: false, retryAfter: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)) };
      }
      entries.set(id, now);
      return { ok: true, retryAfter: 0 };
    },
    async release(ip, id) {
      log.get(ip)?.delete(id);
    },
  };
}

/**
 * `POST /oauth/register`: at most `limit` registrations per hour per IP address
 * (docs/api-contract.md §3.4), shared by every replica. A request the server refuses
 * (4xx/5xx) gives its slot back, so only registered clients count; the (limit+1)th gets 429
 * with the contract's body (docs/api-contract.md §4) and a Retry-After.
 */
export function registrationRateLimit(counter: RegistrationCounter, limit: number): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    // Behind trusted proxies only (TRUST_PROXY), and IPv6 by /64: see client-address.ts.
    const ip = clientAddress(req);
    const id = randomUUID();
    let verdict: { ok: boolean; retryAfter: number };
    try {
      verdict = await counter.reserve(ip, id, limit, Date.now());
    } catch {
      // Without the shared state we cannot keep the limit: refuse rather than let floods in.
      res.status(503).set('Retry-After', '5').json({ error: 'temporarily_unavailable', error_description: 'try again shortly' });
      return;
    }
    if (!verdict.ok) {
      res.status(429).set('Retry-After', String(verdict.retryAfter)).set('Cache-Control', 'no-store').json(BODY);
      return;
    }
    res.on('finish', () => {
      if (res.statusCode >= 400) counter.release(ip, id).catch(() => undefined);
    });
    next();
  };
}
