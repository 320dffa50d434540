import { createLogger } from '@firewatch/logger';
import { createDispatchLoop } from '../src/domain/dispatch-loop.js';
import type { ClaimedDelivery, DispatchRepository, JobOutcome } from '../src/domain/dispatch.types.js';

const logger = createLogger({ service: 'dispatch-loop-test', level: 'silent' });
const tick = () => new Promise((r) => setImmediate(r));

const delivery = (endpoint_id: string, seq: number) => ({ id: `d${seq}`, seq, endpoint_id }) as ClaimedDelivery;
const outcome = (endpoint_id: string): JobOutcome => ({
  attempts: [],
  updates: [],
  released: [],
  endpoint: { id: endpoint_id, lastSucceeded: true, gone: false, firstFailureAt: null },
});

describe('the dispatch loop', () => {
  it('claims for new deliveries of an endpoint it is sending to only once that job ends', async () => {
    const due: ClaimedDelivery[] = [delivery('e1', 1)];
    let claims = 0;
    const repository: DispatchRepository = {
      claim: async () => {
        claims++;
        return due.splice(0);
      },
      record: async () => undefined,
    };
    const running: (() => void)[] = [];
    const finish = () => running.splice(0).forEach((r) => r());
    const sent: string[] = [];
    const loop = createDispatchLoop({
      repository,
      logger,
      concurrency: 4,
      claimBatch: 10,
      leaseMs: 30_000,
      pollIntervalMs: 60_000,
      runJob: async (group) => {
        sent.push(...group.map((d) => d.id));
        await new Promise<void>((r) => running.push(r));
        return outcome(group[0].endpoint_id);
      },
    });
    loop.start();
    await tick();
    expect(sent).toEqual(['d1']);
    const claimsWhileSending = claims;

    due.push(delivery('e1', 2));
    loop.wakeFor(['e1']);
    await tick();
    expect(claims).toBe(claimsWhileSending);

    finish();
    for (let i = 0; i < 5 && !sent.includes('d2'); i++) await tick();
    expect(sent).toEqual(['d1', 'd2']);

    // Another endpoint's deliveries are claimed at once, even while e1 is being sent to.
    due.push(delivery('e2', 3));
    loop.wakeFor(['e1', 'e2']);
    for (let i = 0; i < 5 && !sent.includes('d3'); i++) await tick();
    expect(sent).toEqual(['d1', 'd2', 'd3']);
    finish();
    await loop.stop();
  });

  it('claims again after a job only when something may be due: its deliveries released or retried, or a full batch', async () => {
    const due: ClaimedDelivery[] = [];
    let claims = 0;
    // As the claim's SQL: nothing of an endpoint while a job holds its leases.
    const sending = new Set<string>();
    const repository: DispatchRepository = {
      claim: async (limit) => {
        claims++;
        const taken = due.filter((d) => !sending.has(d.endpoint_id)).slice(0, limit);
        for (const d of taken) due.splice(due.indexOf(d), 1);
        return taken;
      },
      record: async () => undefined,
    };
    let next: (group: ClaimedDelivery[]) => JobOutcome = (group) => outcome(group[0].endpoint_id);
    const loop = createDispatchLoop({
      repository,
      logger,
      concurrency: 4,
      claimBatch: 2,
      leaseMs: 30_000,
      pollIntervalMs: 60_000,
      runJob: async (group) => {
        sending.add(group[0].endpoint_id);
        await tick();
        sending.delete(group[0].endpoint_id);
        return next(group);
      },
    });
    const settle = async () => {
      for (let i = 0; i < 10; i++) await tick();
    };
    loop.start();
    await settle();
    expect(claims).toBe(1);

    // Sent, nothing left: the job's end claims nothing (an empty claim).
    due.push(delivery('e1', 1));
    loop.wake();
    await settle();
    expect(claims).toBe(2);

    // Released behind a failure: claimed again at once.
    next = (group) => ({ ...outcome(group[0].endpoint_id), released: [{ id: 'd3', lease_token: 't' }] });
    due.push(delivery('e1', 2));
    loop.wake();
    await settle();
    expect(claims).toBe(4);

    // A full batch may have left more of its endpoint's: claimed again after the job, which finds the rest.
    next = (group) => outcome(group[0].endpoint_id);
    due.push(delivery('e1', 4), delivery('e1', 5), delivery('e1', 6));
    loop.wake();
    await settle();
    expect(due).toEqual([]);
    expect(claims).toBe(7);
    await loop.stop();
  });
});

describe('deliveries stored while a claim is under way', () => {
  it('are claimed when the job of their endpoint that claim started ends, not left to the timer', async () => {
    const due: ClaimedDelivery[] = [delivery('e1', 1)];
    // As the claim's SQL: what was due when it started (its snapshot), nothing of an endpoint a job holds.
    const sending = new Set<string>();
    let answer: (() => void) | null = null;
    const repository: DispatchRepository = {
      claim: async (limit) => {
        const taken = due.filter((d) => !sending.has(d.endpoint_id)).slice(0, limit);
        for (const d of taken) due.splice(due.indexOf(d), 1);
        if (taken.length && !answer) await new Promise<void>((r) => (answer = r));
        return taken;
      },
      record: async () => undefined,
    };
    const running: (() => void)[] = [];
    const sent: string[] = [];
    const loop = createDispatchLoop({
      repository,
      logger,
      concurrency: 4,
      claimBatch: 10,
      leaseMs: 30_000,
      pollIntervalMs: 60_000,
      runJob: async (group) => {
        sending.add(group[0].endpoint_id);
        sent.push(...group.map((d) => d.id));
        await new Promise<void>((r) => running.push(r));
        sending.delete(group[0].endpoint_id);
        return outcome(group[0].endpoint_id);
      },
    });
    const settle = async () => {
      for (let i = 0; i < 10; i++) await tick();
    };
    loop.start();
    await settle();
    // The claim taking d1 has not answered yet when d2 of the same endpoint is stored.
    expect(answer).not.toBeNull();
    due.push(delivery('e1', 2));
    loop.wakeFor(['e1']);
    answer!();
    await settle();
    expect(sent).toEqual(['d1']);

    running.splice(0).forEach((r) => r());
    await settle();
    expect(sent).toEqual(['d1', 'd2']);
    running.splice(0).forEach((r) => r());
    await loop.stop();
  });
});
