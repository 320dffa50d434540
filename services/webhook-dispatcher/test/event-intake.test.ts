import { createLogger } from '@firewatch/logger';
import type { IntakeEvent, IntakeRepository } from '../src/domain/dispatch.types.js';
import { createEventIntake } from '../src/queue/event-intake.js';

const logger = createLogger({ service: 'event-intake-test', level: 'silent' });
const event = (n: number) => ({ id: `e${n}`, type: 'environment.created', occurred_at: '', team_id: 1, data: {} }) as IntakeEvent;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function recordingRepository() {
  const batches: { ids: string[]; at: number }[] = [];
  const repository: IntakeRepository = {
    store: async (events) => {
      batches.push({ ids: events.map((e) => e.id), at: performance.now() });
      return { count: events.length, endpointIds: ['ep'] };
    },
  };
  return { batches, repository };
}

describe('the event intake', () => {
  it('writes an event after a quiet interval at once, and the events of the next interval in one batch', async () => {
    const { batches, repository } = recordingRepository();
    const stored: number[] = [];
    // Far apart, so that a loaded machine's delays cannot be taken for the interval or the reverse.
    const interval = 1000;
    const intake = createEventIntake({ repository, logger, minIntervalMs: interval, onStored: (s) => stored.push(s.count) });
    const started = performance.now();
    const first = intake.handle(event(1));
    await first;
    expect(batches.map((b) => b.ids)).toEqual([['e1']]);
    expect(batches[0].at - started).toBeLessThan(interval / 2);

    // Arriving over the interval after the first batch began: written together, once it has passed.
    const next = [intake.handle(event(2))];
    await sleep(10);
    next.push(intake.handle(event(3)));
    await sleep(10);
    next.push(intake.handle(event(4)));
    await Promise.all(next);
    expect(batches.map((b) => b.ids)).toEqual([['e1'], ['e2', 'e3', 'e4']]);
    expect(batches[1].at - batches[0].at).toBeGreaterThanOrEqual(interval - 1);
    expect(stored).toEqual([1, 3]);

    // Quiet for longer than the interval: written at once again.
    await sleep(batches[1].at + interval + 10 - performance.now());
    const before = performance.now();
    await intake.handle(event(5));
    expect(batches[2].at - before).toBeLessThan(interval / 2);
    await intake.idle();
  });

  it('does not hold back a whole batch', async () => {
    const { batches, repository } = recordingRepository();
    const intake = createEventIntake({ repository, logger, maxBatch: 3, minIntervalMs: 10_000, onStored: () => undefined });
    const started = performance.now();
    await intake.handle(event(1));
    await Promise.all([2, 3, 4].map((n) => intake.handle(event(n))));
    expect(batches.map((b) => b.ids)).toEqual([['e1'], ['e2', 'e3', 'e4']]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('ends the wait once a whole batch has gathered during it', async () => {
    const { batches, repository } = recordingRepository();
    const intake = createEventIntake({ repository, logger, maxBatch: 3, minIntervalMs: 10_000, onStored: () => undefined });
    const started = performance.now();
    await intake.handle(event(1));
    // e2 alone starts the wait; e3 and e4 arrive during it and make a whole batch.
    const next = [intake.handle(event(2))];
    await sleep(20);
    next.push(intake.handle(event(3)), intake.handle(event(4)));
    await Promise.all(next);
    expect(batches.map((b) => b.ids)).toEqual([['e1'], ['e2', 'e3', 'e4']]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('rejects the events of a failed batch, and writes the next ones', async () => {
    let fail = true;
    const intake = createEventIntake({
      repository: {
        store: async (events) => {
          if (fail) throw new Error('database down');
          return { count: events.length, endpointIds: [] };
        },
      },
      logger,
      minIntervalMs: 20,
      onStored: () => undefined,
    });
    await expect(intake.handle(event(1))).rejects.toThrow('database down');
    fail = false;
    await expect(intake.handle(event(2))).resolves.toBeUndefined();
  });
});
