import { createMemoryRateLimitStore } from '../src/data/memory-rate-limit.store.js';
import type { RateLimitStore } from '../src/domain/rate-limit.store.js';

describe('in-memory sliding window', () => {
  const T0 = 1_700_000_000_000;
  let now = T0;
  let store: RateLimitStore;
  beforeEach(() => {
    now = T0;
    store = createMemoryRateLimitStore({ now: () => now });
  });
  afterEach(() => store.close());

  const at = async (offsetMs: number, key = 'k', limit = 5) => {
    now = T0 + offsetMs;
    return store.hit(key, limit, 60_000);
  };

  it('refuses the sixth request in any 60 s window and frees exactly one slot per expired request', async () => {
    for (let i = 0; i < 5; i++) {
      expect(await at(i * 1000)).toEqual({ allowed: true, used: i + 1, oldestMs: T0, nowMs: T0 + i * 1000 });
    }
    expect(await at(59_000)).toMatchObject({ allowed: false, used: 5, oldestMs: T0 });
    // The request of t=0 is still inside the window one millisecond before it leaves.
    expect(await at(59_999)).toMatchObject({ allowed: false, used: 5 });
    // t=60.001 s: the t=0 request has left; one slot, and only one.
    expect(await at(60_001)).toMatchObject({ allowed: true, used: 5, oldestMs: T0 + 1000 });
    expect(await at(60_001)).toMatchObject({ allowed: false, used: 5, oldestMs: T0 + 1000 });
    expect(await at(60_999)).toMatchObject({ allowed: false });
    // The t=1 s request leaves at exactly t=61 s.
    expect(await at(61_000)).toMatchObject({ allowed: true, used: 5, oldestMs: T0 + 2000 });
  });

  it('does not count refused requests', async () => {
    for (let i = 0; i < 5; i++) await at(0);
    for (let i = 0; i < 50; i++) expect((await at(30_000)).allowed).toBe(false);
    // Had the refusals been counted, the window would still be full at t=60 s.
    for (let i = 0; i < 5; i++) expect((await at(60_000)).allowed).toBe(true);
    expect((await at(60_000)).allowed).toBe(false);
  });

  it("keeps keys apart and honours each call's limit", async () => {
    for (let i = 0; i < 3; i++) expect((await at(0, 'w', 3)).allowed).toBe(true);
    expect((await at(0, 'w', 3)).allowed).toBe(false);
    expect((await at(0, 'r', 5)).allowed).toBe(true);
    expect(await at(0, 'w', 10)).toMatchObject({ allowed: true, used: 4 });
  });

  it('reports an empty window after everything expired', async () => {
    await at(0);
    expect(await at(120_000)).toEqual({ allowed: true, used: 1, oldestMs: T0 + 120_000, nowMs: T0 + 120_000 });
  });
});

describe('in-memory hitAll', () => {
  it('counts a request in every log or in none', async () => {
    const store = createMemoryRateLimitStore();
    try {
      const logs = [
        { key: 'key', limit: 5 },
        { key: 'team', limit: 2 },
      ];
      expect((await store.hitAll(logs, 60_000)).map((h) => [h.allowed, h.used])).toEqual([
        [true, 1],
        [true, 1],
      ]);
      expect((await store.hitAll(logs, 60_000)).map((h) => [h.allowed, h.used])).toEqual([
        [true, 2],
        [true, 2],
      ]);
      // The team log is full: refused, and the key log is not charged either.
      expect((await store.hitAll(logs, 60_000)).map((h) => [h.allowed, h.used])).toEqual([
        [true, 2],
        [false, 2],
      ]);
      expect(await store.hit('key', 5, 60_000)).toMatchObject({ allowed: true, used: 3 });
    } finally {
      await store.close();
    }
  });
});
