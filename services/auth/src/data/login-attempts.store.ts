import type { Redis } from 'ioredis';
import type { LoginAttemptsStore } from '../domain/login-attempts.store.js';

// KEYS: lock, account failures, address failures. ARGV: now, window, account limit,
// address limit, attempt id. Returns {1, 0} or {0, retry-after ms}.
const ADMIT = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then return {0, ttl} end
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
for i = 2, 3 do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window) end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return {0, 5000} end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then
  local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window - now}
end
for i = 2, 3 do
  redis.call('ZADD', KEYS[i], now, ARGV[5])
  redis.call('PEXPIRE', KEYS[i], window)
end
return {1, 0}`;

// KEYS: lock, account failures, lock level. ARGV: now, window, account limit, first
// lock, longest lock, level memory.
const FAIL = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[2]) < tonumber(ARGV[3]) then return 0 end
local level = redis.call('INCR', KEYS[3])
redis.call('PEXPIRE', KEYS[3], ARGV[6])
local lock = math.min(tonumber(ARGV[4]) * 2 ^ (level - 1), tonumber(ARGV[5]))
redis.call('SET', KEYS[1], '1', 'PX', math.floor(lock))
redis.call('DEL', KEYS[2])
return lock`;

export function redisLoginAttemptsStore(redis: Redis, prefix: string): LoginAttemptsStore {
  const k = (kind: string, id: string) => `${prefix}oauth:login:${kind}:${id}`;
  return {
    async countSubmission(uid, ttlMs) {
      const [[, count]] = (await redis.multi().incr(k('interaction', uid)).pexpire(k('interaction', uid), ttlMs).exec()) as [
        [null, number],
      ];
      return count;
    },
    async admit(key, l, now) {
      const keys = [k('lock', key.account), k('account', key.account), k('address', key.address)];
      const [ok, retry] = (await redis.eval(ADMIT, 3, ...keys, now, l.windowMs, l.accountFailures, l.addressFailures, key.id)) as [
        number,
        number,
      ];
      return ok === 1 ? { ok: true } : { ok: false, retryAfterMs: retry };
    },
    async fail(key, l, now) {
      const keys = [k('lock', key.account), k('account', key.account), k('level', key.account)];
      await redis.eval(FAIL, 3, ...keys, now, l.windowMs, l.accountFailures, l.lockMs, l.maxLockMs, l.levelMemoryMs);
    },
    async settle(key, forgive) {
      const tx = redis.multi().zrem(k('address', key.address), key.id);
      if (forgive) tx.del(k('account', key.account), k('level', key.account));
      else tx.zrem(k('account', key.account), key.id);
      await tx.exec();
    },
  };
}

/** The same rules in this process's memory (REDIS_URL unset: one replica only). */
export function memoryLoginAttemptsStore(): LoginAttemptsStore {
  const submissions = new Map<string, { count: number; until: number }>();
  const attempts = new Map<string, Map<string, number>>(); // "account:x" / "address:y" → id → time
  const locks = new Map<string, number>(); // account → locked until
  const levels = new Map<string, { level: number; until: number }>();
  let windowMs = 15 * 60_000;
  const live = (name: string, now: number, window: number) => {
    windowMs = window;
    const set = attempts.get(name) ?? new Map<string, number>();
    for (const [id, at] of set) if (at <= now - window) set.delete(id);
    attempts.set(name, set);
    return set;
  };
  // Unauthenticated requests name accounts and addresses at will: forget what has expired,
  // or made-up emails would grow this process's memory without bound.
  setInterval(() => {
    const now = Date.now();
    for (const [uid, entry] of submissions) if (entry.until <= now) submissions.delete(uid);
    for (const [account, until] of locks) if (until <= now) locks.delete(account);
    for (const [account, entry] of levels) if (entry.until <= now) levels.delete(account);
    for (const name of attempts.keys()) if (live(name, now, windowMs).size === 0) attempts.delete(name);
  }, 60_000).unref();
  return {
    async countSubmission(uid, ttlMs) {
      const now = Date.now();
      const entry = submissions.get(uid);
      const count = entry && entry.until > now ? entry.count + 1 : 1;
      submissions.set(uid, { count, until: now + ttlMs });
      return count;
    },
    async admit(key, l, now) {
      const lockedUntil = locks.get(key.account) ?? 0;
      if (lockedUntil > now) return { ok: false, retryAfterMs: lockedUntil - now };
      const account = live(`account:${key.account}`, now, l.windowMs);
      const address = live(`address:${key.address}`, now, l.windowMs);
      if (account.size >= l.accountFailures) return { ok: false, retryAfterMs: 5000 };
      if (address.size >= l.addressFailures) return { ok: false, retryAfterMs: Math.min(...address.values()) + l.windowMs - now };
      account.set(key.id, now);
      address.set(key.id, now);
      return { ok: true };
    },
    async fail(key, l, now) {
      if (live(`account:${key.account}`, now, l.windowMs).size < l.accountFailures) return;
      const previous = levels.get(key.account);
      const level = previous && previous.until > now ? previous.level + 1 : 1;
      levels.set(key.account, { level, until: now + l.levelMemoryMs });
      locks.set(key.account, now + Math.min(l.lockMs * 2 ** (level - 1), l.maxLockMs));
      attempts.delete(`account:${key.account}`);
    },
    async settle(key, forgive) {
      attempts.get(`address:${key.address}`)?.delete(key.id);
      if (forgive) {
        attempts.delete(`account:${key.account}`);
        levels.delete(key.account);
      } else {
        attempts.get(`account:${key.account}`)?.delete(key.id);
      }
    },
  };
}
