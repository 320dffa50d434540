import type { Redis } from 'ioredis';
import { connectRedis } from '../src/data/redis-client.js';
import { createRedisRateLimitStore } from '../src/data/redis-rate-limit.store.js';
import { RateLimitStoreUnavailableError } from '../src/data/rate-limit-store.error.js';
import { dropKeys, silent, uniquePrefix } from './support/gateway-harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Redis sliding window', () => {
  const prefix = uniquePrefix('store');
  let a: Redis;
  let b: Redis;
  beforeAll(async () => {
    a = await connectRedis(process.env.TEST_REDIS_URL!, silent);
    b = await connectRedis(process.env.TEST_REDIS_URL!, silent);
  });
  afterAll(async () => {
    await dropKeys(a, prefix);
    a.disconnect();
    b.disconnect();
  });

  it('counts exactly across two clients, by Redis time, and never counts refusals', async () => {
    const one = createRedisRateLimitStore({ redis: a, keyPrefix: prefix });
    const two = createRedisRateLimitStore({ redis: b, keyPrefix: prefix });
    const windowMs = 1000;
    const first = await one.hit('exact', 3, windowMs);
    expect(first).toMatchObject({ allowed: true, used: 1 });
    expect(first.oldestMs).toBe(first.nowMs);
    // Redis's clock, in ms with µs precision, close to ours on one machine.
    expect(Math.abs(first.nowMs - Date.now())).toBeLessThan(1000);
    expect(await two.hit('exact', 3, windowMs)).toMatchObject({ allowed: true, used: 2, oldestMs: first.oldestMs });
    expect(await one.hit('exact', 3, windowMs)).toMatchObject({ allowed: true, used: 3 });
    for (let i = 0; i < 10; i++) {
      expect(await (i % 2 ? one : two).hit('exact', 3, windowMs)).toMatchObject({ allowed: false, used: 3, oldestMs: first.oldestMs });
    }
    // The zset holds only accepted requests, and expires with the window.
    expect(await a.zcard(`${prefix}exact`)).toBe(3);
    const ttl = await a.pttl(`${prefix}exact`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(windowMs);

    // Once the first request leaves the window, exactly one slot is free.
    await sleep(first.oldestMs! + windowMs - Date.now() + 50);
    const after = await two.hit('exact', 3, windowMs);
    expect(after.allowed).toBe(true);
    expect(after.oldestMs).toBeGreaterThan(first.oldestMs!);
    expect(after.nowMs - first.nowMs).toBeGreaterThanOrEqual(windowMs);
  });

  it('gives concurrent requests no more than the limit', async () => {
    const store = createRedisRateLimitStore({ redis: a, keyPrefix: prefix });
    const hits = await Promise.all(Array.from({ length: 40 }, () => store.hit('burst', 7, 60_000)));
    expect(hits.filter((h) => h.allowed)).toHaveLength(7);
    expect(
      hits
        .filter((h) => h.allowed)
        .map((h) => h.used)
        .sort((x, y) => x - y),
    ).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('counts concurrent requests in several logs atomically: in all of them or in none', async () => {
    const store = createRedisRateLimitStore({ redis: a, keyPrefix: prefix });
    // Three keys of one team: each may make 4 reads, the team 6.
    const logs = (k: number) => [
      { key: `multi:key${k}`, limit: 4 },
      { key: 'multi:team', limit: 6 },
    ];
    const hits = await Promise.all(Array.from({ length: 30 }, (_, i) => store.hitAll(logs(i % 3), 60_000)));
    const counted = hits.filter((h) => h.every((x) => x.allowed));
    expect(counted).toHaveLength(6);
    expect(await a.zcard(`${prefix}multi:team`)).toBe(6);
    const perKey = await Promise.all([0, 1, 2].map((k) => a.zcard(`${prefix}multi:key${k}`)));
    expect(perKey.reduce((x, y) => x + y, 0)).toBe(6);
  });

  it('reports an unreachable Redis as unavailable, quickly', async () => {
    const down = await connectRedis('redis://127.0.0.1:1', silent, { connectTimeoutMs: 200 });
    const store = createRedisRateLimitStore({ redis: down, keyPrefix: prefix });
    const started = Date.now();
    await expect(store.hit('x', 5, 60_000)).rejects.toBeInstanceOf(RateLimitStoreUnavailableError);
    await expect(store.ping()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1000);
    down.disconnect();
  });
});
