import { createClassificationsRepository } from '../src/data/classifications.repository.js';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

beforeAll(async () => {
  h = await startIncidentConfig();
});

afterAll(async () => {
  await h?.close();
});

/** A seed that only counts its calls: what seedOnce decides, not what a seed writes. */
function counting() {
  const calls: number[] = [];
  return { calls, seed: async () => void calls.push(calls.length) };
}

const markers = async (teamId: number) => h.db.knex('severity_seeds').where({ team_id: teamId }).pluck('team_id');

describe("a team's starting severities, seeded once (classifications repository)", () => {
  it('forgets a marker its own rolled-back transaction made, and seeds on the next request', async () => {
    const store = createClassificationsRepository(h.db.knex);
    const { calls, seed } = counting();
    // A write whose checks name severities twice (it sees its own, uncommitted marker the
    // second time), then fails: the rollback takes the marker and the seed back.
    await expect(
      h.db.knex.transaction(async (tx) => {
        await store.seedOnce(tx, 701, seed);
        await store.seedOnce(tx, 701, seed);
        throw new Error('a 422');
      }),
    ).rejects.toThrow('a 422');
    expect([calls.length, await markers(701)]).toEqual([1, []]);

    await store.seedOnce(undefined, 701, seed);
    expect([calls.length, await markers(701)]).toEqual([2, [701]]);
    // Remembered now: neither asked nor seeded again.
    await store.seedOnce(undefined, 701, seed);
    await h.db.knex.transaction((tx) => store.seedOnce(tx, 701, seed));
    expect(calls.length).toBe(2);
  });

  it("keeps a seed its caller's transaction committed, and does not seed it twice", async () => {
    const store = createClassificationsRepository(h.db.knex);
    const { calls, seed } = counting();
    await h.db.knex.transaction(async (tx) => {
      await store.seedOnce(tx, 702, seed);
      await store.seedOnce(tx, 702, seed);
    });
    await store.seedOnce(undefined, 702, seed);
    expect([calls.length, await markers(702)]).toEqual([1, [702]]);
  });
});
