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
});
