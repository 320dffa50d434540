import type { Knex } from 'knex';
import { type OnCallHarness } from './support/on-call-harness.js';
import { createSchedule, doc, pointers, rotationIn as postRotation, startWithUsers, weekly } from './support/schedules.fixture.js';
import { seedTeam } from './support/teams.fixture.js';
import { seedUsers } from './support/users.fixture.js';

let h: OnCallHarness;
beforeAll(async () => {
  h = await startWithUsers();
});
afterAll(async () => h?.close());

const schedule = (attributes: Record<string, unknown> = {}, principal?: Record<string, unknown>) =>
  createSchedule(h, attributes, principal);
const rotationIn = (scheduleId: string, attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
  postRotation(h, scheduleId, attributes, principal);

describe('schedules', () => {
  it('creates, gets, updates with PUT, lists and deletes, each with its event', async () => {
    const team = await seedTeam(h.db.knex as Knex);
    const created = await h.create('schedules', {
      name: 'Platform',
      owner_user_id: 11,
      description: 'Days',
      owner_group_ids: [team, team],
    });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(attributes).toMatchObject({
      name: 'Platform',
      description: 'Days',
      owner_user_id: 11,
      all_time_coverage: false,
      owner_group_ids: [team],
    });
    const updated = await h.call('PUT', `/v1/schedules/${id}`, doc('schedules', { all_time_coverage: true, owner_user_id: 12 }));
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ name: 'Platform', all_time_coverage: true, owner_user_id: 12 });
    expect((await h.call('PATCH', `/v1/schedules/${id}`, doc('schedules', { name: 'x' }))).status).toBe(404);
    const list = await h.call('GET', '/v1/schedules?filter[name][eq]=platform');
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([id]);
    expect(list.body.meta).toMatchObject({ total_count: 1 });
    const deleted = await h.call('DELETE', `/v1/schedules/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type: 'schedules' });
    expect((await h.call('GET', `/v1/schedules/${id}`)).status).toBe(404);
    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    expect(h.events!.events.filter((e) => (e.body.data as { id: string }).id === id).map((e) => e.routingKey)).toEqual([
      'schedule.created',
      'schedule.updated',
      'schedule.deleted',
    ]);
  });

  it('takes only a live user of the team as owner, and keeps an owner deleted since', async () => {
    for (const owner of [21, 13, 999]) {
      const res = await h.create('schedules', { name: 'x', owner_user_id: owner });
      expect(res.status).toBe(422);
      expect(pointers(res)).toEqual(['/data/attributes/owner_user_id']);
    }
    expect((await h.create('schedules', { name: 'x' })).status).toBe(422);
    expect((await h.create('schedules', { name: 'x', owner_user_id: '11' })).status).toBe(422);
    expect((await h.create('schedules', { name: 'x', owner_user_id: 11, slack_channel: { id: 'C1' } })).status).toBe(422);
    const id = await schedule({ owner_user_id: 12 });
    await seedUsers(h.db.knex as Knex, [{ team_id: 1, user_id: 12, deleted: true }]);
    expect((await h.call('PUT', `/v1/schedules/${id}`, doc('schedules', { owner_user_id: 12, name: 'Kept' }))).status).toBe(200);
    const shown = await h.call('GET', `/v1/schedules/${id}?include=owner_user`);
    expect(shown.body.data.relationships.owner_user.data).toEqual({ id: '12', type: 'users' });
    expect(shown.body.included).toEqual([
      { id: '12', type: 'users', attributes: expect.objectContaining({ name: 'User 12', deleted: true }) },
    ]);
    expect((await h.call('PUT', `/v1/schedules/${id}`, doc('schedules', { owner_user_id: 13 }))).status).toBe(422);
    await seedUsers(h.db.knex as Knex, [{ team_id: 1, user_id: 12 }]);
  });

  it("shows a group-scoped key only its groups' schedules and what hangs on them", async () => {
    const [ops, other] = [await seedTeam(h.db.knex as Knex), await seedTeam(h.db.knex as Knex)];
    const group = { credential: { type: 'api_key', id: 'group-key', kind: 'group' }, group_ids: [ops] };
    const theirs = await schedule({ owner_group_ids: [other] });
    const ours = await schedule({ owner_group_ids: [ops] }, group);
    expect((await h.call('GET', `/v1/schedules/${theirs}`, { principal: group })).status).toBe(404);
    expect((await h.call('GET', `/v1/schedules/${ours}`, { principal: group })).status).toBe(200);
    expect((await rotationIn(theirs, weekly, group)).status).toBe(404);
    const rotation = (await rotationIn(theirs, weekly)).body.data.id;
    expect((await h.call('GET', `/v1/schedule_rotations/${rotation}`, { principal: group })).status).toBe(404);
    expect((await h.create('schedules', { name: 'x', owner_user_id: 11, owner_group_ids: [other] }, { principal: group })).status).toBe(
      403,
    );
  });

  it('needs oc.schedules: read for reads, write for writes', async () => {
    const id = await schedule();
    const oauth = (scopes: string[]) => ({ credential: { type: 'oauth', client_id: 'c' }, scopes });
    expect((await h.call('GET', '/v1/schedules', { principal: oauth(['oc.alerts:read', 'oc.alerts:write']) })).status).toBe(403);
    expect((await h.call('GET', `/v1/schedules/${id}/schedule_rotations`, { principal: oauth(['oc.schedules:read']) })).status).toBe(200);
    expect((await rotationIn(id, weekly, oauth(['oc.schedules:read']))).status).toBe(403);
    expect((await rotationIn(id, weekly, oauth(['oc.schedules:read', 'oc.schedules:write']))).status).toBe(201);
    expect((await h.call('DELETE', `/v1/schedules/${id}`, { principal: { on_call_role: 'observer' } })).status).toBe(403);
  });

  it("hides another team's schedules, also as a parent", async () => {
    const id = await schedule();
    const other = { team_id: 2 };
    expect((await h.call('GET', `/v1/schedules/${id}`, { principal: other })).status).toBe(404);
    expect((await h.call('PUT', `/v1/schedules/${id}`, { ...doc('schedules', { name: 'x' }), principal: other })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/schedules/${id}`, { principal: other })).status).toBe(404);
    expect((await rotationIn(id, weekly, other)).status).toBe(404);
    expect((await h.call('GET', `/v1/schedules/${id}/schedule_rotations`, { principal: other })).status).toBe(404);
    expect((await h.call('GET', `/v1/schedules/${id}/override_shifts`, { principal: other })).status).toBe(404);
    expect((await h.call('GET', '/v1/schedules/not-a-uuid')).status).toBe(404);
  });
});
