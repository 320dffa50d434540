import type { Knex } from 'knex';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { pointers } from '../support/schedules.fixture.js';
import { seedTeam } from '../support/teams.fixture.js';
import { createPolicy, levelIn, put, seedService } from './escalation.fixture.js';

let h: OnCallHarness;
let knex: Knex;

beforeAll(async () => {
  h = await startOnCall();
  knex = h.db.knex as Knex;
});
afterAll(async () => h?.close());

const levelCount = async (policyId: string) =>
  Number((await knex('escalation_levels').where({ escalation_policy_id: policyId }).count({ n: '*' }))[0]?.n);

describe('escalation cycles through services', () => {
  it('refuses a level paging a service its own policy names, and a loop through a service and a team', async () => {
    const s = await seedService(knex);
    const self = await createPolicy(h, { service_ids: [s] });
    const own = await levelIn(h, self, { notification_target_params: [{ type: 'service', id: s }] });
    expect(own.status).toBe(422);
    expect(own.body.errors[0]).toMatchObject({
      code: 'escalation_cycle',
      source: { pointer: '/data/attributes/notification_target_params' },
    });
    expect(await levelCount(self)).toBe(0);

    const [ta, sb] = [await seedTeam(knex), await seedService(knex)];
    const a = await createPolicy(h, { group_ids: [ta] });
    const b = await createPolicy(h, { service_ids: [sb] });
    expect((await levelIn(h, a, { notification_target_params: [{ type: 'service', id: sb }] })).status).toBe(201);
    const back = await levelIn(h, b, { notification_target_params: [{ type: 'team', id: ta, team_members: 'escalate' }] });
    expect(back.status).toBe(422);
    expect(back.body.errors[0].detail).toContain(`${b} → ${a} → ${b}`);
    expect(await levelCount(b)).toBe(0);
  });

  it('refuses a policy update naming a service its levels lead back from', async () => {
    const s = await seedService(knex);
    const c = await createPolicy(h);
    expect((await levelIn(h, c, { notification_target_params: [{ type: 'service', id: s }] })).status).toBe(201);
    const closing = await put(h, `/v1/escalation_policies/${c}`, 'escalation_policies', { service_ids: [s] });
    expect(closing.status).toBe(422);
    expect(pointers(closing)).toEqual(['/data/attributes/service_ids']);
    expect((await h.call('GET', `/v1/escalation_policies/${c}`)).body.data.attributes.service_ids).toEqual([]);
  });
});

describe('escalation writes at the same moment', () => {
  it('lets one of two writes each closing half of a loop through, never both', async () => {
    for (let round = 0; round < 5; round++) {
      const [ta, sb] = [await seedTeam(knex), await seedService(knex)];
      const a = await createPolicy(h, { group_ids: [ta] });
      const b = await createPolicy(h, { service_ids: [sb] });
      const both = await Promise.all([
        levelIn(h, a, { notification_target_params: [{ type: 'service', id: sb }] }),
        levelIn(h, b, { notification_target_params: [{ type: 'team', id: ta, team_members: 'escalate' }] }),
      ]);
      expect(both.map((r) => r.status).sort()).toEqual([201, 422]);
    }
  });
});
