import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RateLimitHit, RateLimitStore } from '../domain/rate-limit.store.js';
import { RateLimitStoreUnavailableError } from './rate-limit-store.error.js';

/**
 * One atomic step of the sliding-window logs of a request (its key's, its user's, its
 * team's). Time comes from the Redis server, so replicas with skewed clocks agree on every
 * window. Scores are microseconds; an entry made exactly one window ago has left the
 * window. The request is added to every log when each has room, else to none, so refused
 * requests add nothing anywhere.
 *
 * KEYS: the logs; ARGV[1] window (µs); ARGV[2] member suffix unique to the request;
 * ARGV[2+i] the limit of KEYS[i].
 * Returns { now (µs), then per log: room 0|1, used, oldest score (µs) or -1 }.
 */
const SLIDING_WINDOW_LUA = `
if redis.replicate_commands then redis.replicate_commands() end
local window = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local used = {}
local room = {}
local all = true
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  used[i] = redis.call('ZCARD', key)
  room[i] = used[i] < tonumber(ARGV[2 + i])
  if not room[i] then all = false end
end
local out = { now }
for i, key in ipairs(KEYS) do
  if all then
    redis.call('ZADD', key, now, t[1] .. '.' .. t[2] .. ':' .. ARGV[2])
    redis.call('PEXPIRE', key, math.ceil(window / 1000))
    used[i] = used[i] + 1
  end
  local oldest = -1
  local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if first[2] then oldest = tonumber(first[2]) end
  out[#out + 1] = room[i] and 1 or 0
  out[#out + 1] = used[i]
  out[#out + 1] = oldest
end
return out
`;

interface WithSlidingWindow {
  firewatchSlidingWindow(...args: (string | number)[]): Promise<number[]>;
}

export interface RedisRateLimitStoreOptions {
  redis: Redis;
  /** Prepended to every key, so deployments (and test suites) sharing a Redis stay apart. */
  keyPrefix?: string;
}

/**
 * The shared store: a sorted set per (bucket, identity) updated by one Lua script sent as
 * EVALSHA (ioredis `defineCommand` loads it on first NOSCRIPT). The logs of one request
 * are read and written by that one script, so a Redis Cluster would need them in one
 * hash slot (a `{team}` hash tag); a single Redis, as deployed, needs nothing.
 */
export function createRedisRateLimitStore({ redis, keyPrefix = 'firewatch:rl:' }: RedisRateLimitStoreOptions): RateLimitStore {
  // The number of keys varies per call, so it is passed as the first argument.
  redis.defineCommand('firewatchSlidingWindow', { lua: SLIDING_WINDOW_LUA });
  const command = redis as unknown as WithSlidingWindow;
  // Unique members without a random draw per request: this process's random tag plus a counter.
  const processTag = randomBytes(6).toString('base64url');
  let counter = 0;
  const unavailable = (err: unknown) => {
    throw new RateLimitStoreUnavailableError(err);
  };

  const store: RateLimitStore = {
    async hit(key, limit, windowMs) {
      return (await store.hitAll([{ key, limit }], windowMs))[0];
    },
    hitAll(logs, windowMs): Promise<RateLimitHit[]> {
      counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
      // The script's arguments in one array, its answer read in place: no async frame, no slices.
      const args: (string | number)[] = [logs.length];
      for (const log of logs) args.push(keyPrefix + log.key);
      args.push(windowMs * 1000, `${processTag}${counter}`);
      for (const log of logs) args.push(log.limit);
      let reply: Promise<number[]>;
      try {
        reply = command.firewatchSlidingWindow(...args);
      } catch (err) {
        return Promise.reject(new RateLimitStoreUnavailableError(err));
      }
      return reply.then((out) => {
        const nowMs = out[0] / 1000;
        const hits: RateLimitHit[] = [];
        for (let i = 0; i < logs.length; i++) {
          const oldest = out[3 + i * 3];
          hits.push({ allowed: out[1 + i * 3] === 1, used: out[2 + i * 3], oldestMs: oldest < 0 ? null : oldest / 1000, nowMs });
        }
        return hits;
      }, unavailable);
    },
    async ping() {
      await redis.ping();
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
  return store;
}
