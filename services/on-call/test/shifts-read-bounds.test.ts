import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';
import { seedUsers } from './support/users.fixture.js';

// Security issue 19, section 6: GET /v1/shifts read every rotation and member of the team
// before its work budget applied. The bounds are lowered here (3 rotations, 5 member
// slots) so that a few rows meet them; the defaults are 2,000 and 20,000.
let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall({ shiftReads: { rotations: 3, memberSlots: 5 } });
  await seedUsers(
    h.db.knex as Knex,
    [11, 12, 14, 15].map((user_id) => ({ team_id: 1, user_id })),
  );
});
afterAll(async () => h?.close());

const doc = (type: string, attributes: Record<string, unknown>) => ({ body: { data: { type, attributes } } });
async function created(path: string, type: string, attributes: Record<string, unknown>): Promise<string> {
  const res = await h.call('POST', path, doc(type, attributes));
  expect([res.status, res.body.errors]).toEqual([201, undefined]);
  return res.body.data.id;
}

const daily = {
  schedule_rotationable_type: 'ScheduleDailyRotation',
  schedule_rotationable_attributes: { handoff_time: '09:00' },
  start_time: '2026-09-28T09:00:00Z',
};
const WEEK = 'from=2026-10-01T00:00:00Z&to=2026-10-08T00:00:00Z';

/** A schedule whose rotations have these members, in turn order; its id and its rotations' ids. */
async function schedule(rotations: number[][]): Promise<{ id: string; rotations: string[] }> {
  const id = await created('/v1/schedules', 'schedules', { name: `S ${randomUUID().slice(0, 6)}`, owner_user_id: 11 });
  const ids: string[] = [];
  for (const [i, members] of rotations.entries()) {
    const rotation = await created(`/v1/schedules/${id}/schedule_rotations`, 'schedule_rotations', { name: `R${i}`, ...daily });
    for (const user_id of members)
      await created(`/v1/schedule_rotations/${rotation}/schedule_rotation_users`, 'schedule_rotation_users', { user_id });
    ids.push(rotation);
  }
  return { id, rotations: ids };
}

const refused = (res: { status: number; body: { errors?: { code: string; source?: unknown; detail: string }[] } }, what: RegExp) => {
  expect(res.status).toBe(400);
  expect(res.body.errors![0]).toMatchObject({ code: 'selection_too_large', source: { parameter: 'schedule_ids[]' } });
  expect(res.body.errors![0].detail).toMatch(what);
};

describe('GET /v1/shifts reads a bounded number of rotations and member slots', () => {
  let a: { id: string; rotations: string[] };
  let b: { id: string; rotations: string[] };
  beforeAll(async () => {
    a = await schedule([
      [11, 12, 14],
      [11, 12],
    ]);
    b = await schedule([[15], [11]]);
  });

  it('refuses the whole team (4 rotations) with 400 selection_too_large, and answers each schedule named alone', async () => {
    refused(await h.call('GET', `/v1/shifts?${WEEK}`), /more than 3 rotations/);
    refused(await h.call('GET', `/v1/shifts?${WEEK}&schedule_ids[]=${a.id}&schedule_ids[]=${b.id}`), /more than 3 rotations/);
    for (const { id } of [a, b]) {
      const res = await h.call('GET', `/v1/shifts?${WEEK}&schedule_ids[]=${id}`);
      expect(res.status).toBe(200);
      expect(res.body.meta.total_count).toBeGreaterThan(0);
      expect((await h.call('GET', `/v1/schedules/${id}/shifts?${WEEK}`)).status).toBe(200);
    }
  });

  it('counts members and the slots of deleted users against the member bound', async () => {
    // Schedule a holds 5 member slots: at the bound, answered.
    expect((await h.call('GET', `/v1/shifts?${WEEK}&schedule_ids[]=${a.id}`)).status).toBe(200);
    const sixth = await created(`/v1/schedule_rotations/${a.rotations[1]}/schedule_rotation_users`, 'schedule_rotation_users', {
      user_id: 15,
    });
    refused(await h.call('GET', `/v1/shifts?${WEEK}&schedule_ids[]=${a.id}`), /more than 5 member slots/);
    refused(await h.call('GET', `/v1/schedules/${a.id}/shifts?${WEEK}`), /more than 5 member slots/);

    expect((await h.call('DELETE', `/v1/schedule_rotation_users/${sixth}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/shifts?${WEEK}&schedule_ids[]=${a.id}`)).status).toBe(200);
    // The slot a deleted user keeps in the turn order is read like a member.
    await (h.db.knex as Knex)('schedule_rotation_vacancies').insert({
      id: randomUUID(),
      team_id: 1,
      schedule_rotation_id: a.rotations[1],
      user_id: 16,
      position: 9,
      member_created_at: new Date('2026-01-01T00:00:00Z'),
      left_at: new Date('2026-09-01T00:00:00Z'),
    });
    refused(await h.call('GET', `/v1/shifts?${WEEK}&schedule_ids[]=${a.id}`), /more than 5 member slots/);
  });

  it('states the bounds in the OpenAPI description of the endpoint', async () => {
    const doc = (await h.call('GET', '/openapi.json', { principal: null })).body;
    for (const path of ['/v1/shifts', '/v1/schedules/{id}/shifts']) {
      expect(doc.paths[path].get.description).toMatch(
        /at most 2,000 rotations and 20,000 member slots .*selection_too_large.*schedule_ids\[\]/,
      );
    }
  });
});
