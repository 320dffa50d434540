import { BusyError, createConcurrencyLimit } from '../src/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createConcurrencyLimit', () => {
  it('runs at most `concurrency` tasks, queues a bounded few for a bounded time, refuses the rest', async () => {
    const limit = createConcurrencyLimit({ concurrency: 2, queue: 2, waitMs: 80 });
    let inFlight = 0;
    let most = 0;
    const task = (ms: number) => async () => {
      most = Math.max(most, ++inFlight);
      await sleep(ms);
      inFlight--;
      return ms;
    };
    const results = await Promise.allSettled([
      limit.run(task(50)),
      limit.run(task(50)), // run
      limit.run(task(10)), // waits ~50 ms: within 80
      limit.run(task(10)), // waits ~50 ms too
      limit.run(task(10)), // queue full: refused at once
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect((results[4] as PromiseRejectedResult).reason).toBeInstanceOf(BusyError);
    expect(most).toBe(2);
  });

  it('refuses a waiter whose wait runs out, and frees the slot of a task that throws', async () => {
    const limit = createConcurrencyLimit({ concurrency: 1, queue: 5, waitMs: 20 });
    const long = limit.run(() => sleep(100));
    await expect(limit.run(async () => 'late')).rejects.toBeInstanceOf(BusyError);
    await long;
    await expect(
      limit.run(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(limit.run(async () => 'free again')).resolves.toBe('free again');
  });
});
