import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  type RateLimitHit,
  type RateLimitStore,
  RateLimitStoreUnavailableError,
} from './rate-limit.store.js';

/**
 * One atomic step of the sliding-window log. Time comes from the Redis server, so replicas
 * with skewed clocks agree on every window. Scores are microseconds; an entry made exactly
 * one window ago has left the window. Refused requests add nothing.
 *
 * KEYS[1] log key; ARGV[1] window (µs); ARGV[2] limit; ARGV[3] member suffix unique to the request.
 * Returns { allowed 0|1, used, oldest score (µs) or -1, now (µs) }.
 */
const SLIDING_WINDOW_LUA = `
if redis.replicate_commands then redis.replicate_commands() end
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local used = redis.call('ZCARD', key)
local allowed = 0
if used < limit then
  redis.call('ZADD', key, now, t[1] .. '.' .. t[2] .. ':' .. ARGV[3])
  redis.call('PEXPIRE', key, math.ceil(window / 1000))
  used = used + 1
  allowed = 1
end
local oldest = -1
local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
if first[2] then oldest = tonumber(first[2]) end
return { allowed, used, oldest, now }
`;

type SlidingWindowReply = [number, number, number, number];

interface WithSlidingWindow {
  firewatchSlidingWindow(key: string, windowUs: number, limit: number, member: string): Promise<SlidingWindowReply>;
}

export interface RedisRateLimitStoreOptions {
  redis: Redis;
  /** Prepended to every key, so deployments (and test suites) sharing a Redis stay apart. */
  keyPrefix?: string;
}

/**
 * The shared store: a sorted set per (bucket, identity) updated by one Lua script sent as
 * EVALSHA (ioredis `defineCommand` loads it on first NOSCRIPT).
 */
export function createRedisRateLimitStore({ redis, keyPrefix = 'firewatch:rl:' }: RedisRateLimitStoreOptions): RateLimitStore {
  redis.defineCommand('firewatchSlidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
  const command = redis as unknown as WithSlidingWindow;
  // Unique members without a random draw per request: this process's random tag plus a counter.
  const processTag = randomBytes(6).toString('base64url');
  let counter = 0;

  return {
    async hit(key, limit, windowMs): Promise<RateLimitHit> {
      counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
      let reply: SlidingWindowReply;
      try {
        reply = await command.firewatchSlidingWindow(keyPrefix + key, windowMs * 1000, limit, `${processTag}${counter}`);
      } catch (err) {
        throw new RateLimitStoreUnavailableError(err);
      }
      const [allowed, used, oldest, now] = reply;
      return { allowed: allowed === 1, used, oldestMs: oldest < 0 ? null : oldest / 1000, nowMs: now / 1000 };
    },
    async ping() {
      await redis.ping();
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
