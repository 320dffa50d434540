import { SingleFlightCache } from '../src/domain/credential-cache.js';

describe('credential cache', () => {
  let now = 0;
  const clock = () => now;

  it('reuses values for the TTL only', async () => {
    const cache = new SingleFlightCache<string | null>(100, 10, clock);
    let loads = 0;
    const load = async () => (++loads % 2 ? 'v' : null);
    now = 0;
    expect(await cache.get('a', load)).toBe('v');
    now = 99;
    expect(cache.peek('a')).toBe('v');
    now = 100;
    expect(cache.peek('a')).toBeUndefined();
    // Negative answers are values too.
    expect(await cache.get('a', load)).toBeNull();
    expect(cache.peek('a')).toBeNull();
  });

  it('evicts the oldest entry beyond its bound', async () => {
    const cache = new SingleFlightCache<number>(1000, 2, clock);
    now = 0;
    for (const [k, v] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      await cache.get(k, async () => v);
    expect(cache.size).toBe(2);
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('b')).toBe(2);
    expect(cache.peek('c')).toBe(3);
  });

  it('shares one load between concurrent callers and does not cache failures', async () => {
    const cache = new SingleFlightCache<number>(1000, 10, clock);
    let calls = 0;
    let release!: () => void;
    const slow = () =>
      new Promise<number>((resolve) => {
        calls++;
        release = () => resolve(7);
      });
    const results = Promise.all([cache.get('k', slow), cache.get('k', slow), cache.get('k', slow)]);
    release();
    expect(await results).toEqual([7, 7, 7]);
    expect(calls).toBe(1);

    await expect(
      cache.get('bad', async () => {
        throw new Error('down');
      }),
    ).rejects.toThrow('down');
    expect(cache.peek('bad')).toBeUndefined();
    expect(await cache.get('bad', async () => 1)).toBe(1);
  });
});
