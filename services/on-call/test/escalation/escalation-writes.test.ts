import type { Knex } from 'knex';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { pointers } from '../support/schedules.fixture.js';
import { seedTeam } from '../support/teams.fixture.js';
import { seedUsers } from '../support/users.fixture.js';
import { seedService } from '../support/targets.fixture.js';
import { createPolicy, levelIn, pathIn, put } from './escalation.fixture.js';

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

describe('policy ids', () => {
  it('points a 422 at the id as sent, a repeated id before it counted', async () => {
    const team = await seedTeam(knex);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const bad = await h.create('escalation_policies', { name: 'Repeated', group_ids: [team, team.toUpperCase(), unknown, unknown] });
    expect(bad.status).toBe(422);
    expect(pointers(bad)).toEqual(['/data/attributes/group_ids/2', '/data/attributes/group_ids/3']);
    const good = await h.create('escalation_policies', { name: 'Repeated', group_ids: [team, team.toUpperCase()] });
    expect(good.body.data.attributes.group_ids).toEqual([team]);
  });
});

describe('level targets on update', () => {
  it('judges only targets the level did not have: one deleted since stays, a new unknown one is a 422 at its place', async () => {
    await seedUsers(knex, [
      { team_id: 1, user_id: 41 },
      { team_id: 1, user_id: 42 },
    ]);
    const p = await createPolicy(h);
    const level = await levelIn(h, p, { notification_target_params: [{ type: 'user', id: 41 }] });
    expect(level.status).toBe(201);
    await seedUsers(knex, [{ team_id: 1, user_id: 41, deleted: true }]);
    const at = `/v1/escalation_levels/${level.body.data.id}`;
    const kept = await put(h, at, 'escalation_levels', {
      notification_target_params: [
        { type: 'user', id: '41' },
        { type: 'user', id: 42 },
      ],
    });
    expect(kept.status).toBe(200);
    const unknown = await put(h, at, 'escalation_levels', {
      notification_target_params: [
        { type: 'user', id: 41 },
        { type: 'user', id: 43 },
      ],
    });
    expect(pointers(unknown)).toEqual(['/data/attributes/notification_target_params/1/id']);
  });
});

describe('group-scoped keys', () => {
  it('act team-wide: a policy names the teams it pages for, it has no owner groups', async () => {
    const [mine, theirs] = [await seedTeam(knex), await seedTeam(knex)];
    const other = await createPolicy(h, { group_ids: [theirs] });
    const key = { group_ids: [mine] };
    expect((await h.call('GET', `/v1/escalation_policies/${other}`, { principal: key })).status).toBe(200);
    expect((await put(h, `/v1/escalation_policies/${other}`, 'escalation_policies', { description: 'Seen' }, key)).status).toBe(200);
    expect((await h.create('escalation_policies', { name: `Group key ${mine.slice(0, 6)}` }, { principal: key })).status).toBe(201);
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

  it('lets one of a policy naming a team and a level escalating to it through, when both close a loop', async () => {
    for (let round = 0; round < 5; round++) {
      const [ta, tb] = [await seedTeam(knex), await seedTeam(knex)];
      const a = await createPolicy(h, { group_ids: [ta] });
      const b = await createPolicy(h);
      expect((await levelIn(h, b, { notification_target_params: [{ type: 'team', id: ta, team_members: 'escalate' }] })).status).toBe(201);
      const [named, level] = await Promise.all([
        put(h, `/v1/escalation_policies/${b}`, 'escalation_policies', { group_ids: [tb] }),
        levelIn(h, a, { notification_target_params: [{ type: 'team', id: tb, team_members: 'escalate' }] }),
      ]);
      expect([named.status, level.status].sort()).toEqual(named.status === 200 ? [200, 422] : [201, 422]);
    }
  });
});

describe('levels and the paths they are written into', () => {
  const underPath = (pathId: string) =>
    h.call('POST', `/v1/escalation_paths/${pathId}/escalation_levels`, {
      body: { data: { type: 'escalation_levels', attributes: { notification_target_params: [] } } },
    });

  it('answers a path created while its policy is deleted with 201 or 404, never a 500', async () => {
    for (let round = 0; round < 8; round++) {
      const p = await createPolicy(h);
      const [gone, path] = await Promise.all([h.call('DELETE', `/v1/escalation_policies/${p}`), pathIn(h, p, { name: 'Night' })]);
      expect(gone.status).toBe(200);
      expect([201, 404]).toContain(path.status);
      expect(await knex('escalation_paths').where({ escalation_policy_id: p })).toEqual([]);
    }
  });

  it('answers a level created while its policy or path is deleted with 201 or 404, never a 500', async () => {
    for (let round = 0; round < 8; round++) {
      const p = await createPolicy(h);
      const [gone, level] = await Promise.all([
        h.call('DELETE', `/v1/escalation_policies/${p}`),
        levelIn(h, p, { notification_target_params: [] }),
      ]);
      expect(gone.status).toBe(200);
      expect([201, 404]).toContain(level.status);
      const q = await createPolicy(h);
      const path = await pathIn(h, q, { name: 'Night' });
      const [removed, under] = await Promise.all([
        h.call('DELETE', `/v1/escalation_paths/${path.body.data.id}`),
        underPath(path.body.data.id),
      ]);
      expect(removed.status).toBe(200);
      expect([201, 404]).toContain(under.status);
      expect(await knex('escalation_levels').whereIn('escalation_policy_id', [p, q])).toEqual([]);
    }
  });

  it('refuses moving a level into a path that holds the most levels', async () => {
    const p = await createPolicy(h);
    const full = await pathIn(h, p, { name: 'Full' });
    for (let i = 0; i < 20; i++) expect((await underPath(full.body.data.id)).status).toBe(201);
    const level = await levelIn(h, p, { notification_target_params: [] });
    const moved = await put(h, `/v1/escalation_levels/${level.body.data.id}`, 'escalation_levels', {
      escalation_policy_path_id: full.body.data.id,
    });
    expect(moved.status).toBe(422);
    expect(moved.body.errors[0]).toMatchObject({
      code: 'limit_reached',
      source: { pointer: '/data/attributes/escalation_policy_path_id' },
    });
    expect(await knex('escalation_levels').where({ escalation_policy_path_id: full.body.data.id }).count({ n: '*' })).toEqual([{ n: 20 }]);
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
