import type { Knex } from 'knex';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { pointers } from '../support/schedules.fixture.js';
import { seedTeam } from '../support/teams.fixture.js';
import { createPolicy, levelIn, pathIn, put, seedService } from './escalation.fixture.js';

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

describe('deferral paths', () => {
  it('refuses deleting the path a deferral path executes, which stays writable', async () => {
    const p = await createPolicy(h);
    const target = await pathIn(h, p, { name: 'Target' });
    const deferral = await pathIn(h, p, {
      name: 'Wait',
      path_type: 'deferral',
      after_deferral_behavior: 'execute_path',
      after_deferral_path_id: target.body.data.id,
    });
    expect(deferral.status).toBe(201);
    const removed = await h.call('DELETE', `/v1/escalation_paths/${target.body.data.id}`);
    expect(removed.status).toBe(422);
    expect(removed.body.errors[0]).toMatchObject({ code: 'deferral_target', source: { pointer: '/data' } });
    expect(removed.body.errors[0].detail).toContain(deferral.body.data.id);
    expect((await h.call('GET', `/v1/escalation_paths/${target.body.data.id}`)).status).toBe(200);
    expect((await put(h, `/v1/escalation_paths/${deferral.body.data.id}`, 'escalation_paths', { name: 'Wait longer' })).status).toBe(200);
    // Once the deferral path executes another path (or is gone), the target may go.
    const again = await put(h, `/v1/escalation_paths/${deferral.body.data.id}`, 'escalation_paths', {
      after_deferral_behavior: 're_evaluate',
      after_deferral_path_id: null,
    });
    expect(again.status).toBe(200);
    expect((await h.call('DELETE', `/v1/escalation_paths/${target.body.data.id}`)).status).toBe(200);
  });

  it('never leaves a deferral path executing a path deleted at the same moment', async () => {
    for (let round = 0; round < 10; round++) {
      const p = await createPolicy(h);
      const target = await pathIn(h, p, { name: 'Target' });
      const [removed, deferral] = await Promise.all([
        h.call('DELETE', `/v1/escalation_paths/${target.body.data.id}`),
        pathIn(h, p, { path_type: 'deferral', after_deferral_behavior: 'execute_path', after_deferral_path_id: target.body.data.id }),
      ]);
      expect([removed.status, deferral.status].sort()).toEqual(removed.status === 200 ? [200, 422] : [201, 422]);
    }
  });
});
