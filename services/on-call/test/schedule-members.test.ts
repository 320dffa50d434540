import { randomUUID } from 'node:crypto';
import { type OnCallHarness } from './support/on-call-harness.js';
import { createRotation, doc, pointers, startWithUsers } from './support/schedules.fixture.js';

let h: OnCallHarness;
beforeAll(async () => {
  h = await startWithUsers();
});
afterAll(async () => h?.close());

const rotation = () => createRotation(h);

describe('schedule rotation users', () => {
  const member = (rotationId: string, attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
    h.call('POST', `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`, {
      ...doc('schedule_rotation_users', attributes),
      principal,
    });

  it('adds members in turn order, moves one with PUT, and removes one', async () => {
    const { rotationId } = await rotation();
    const a = await member(rotationId, { user_id: 11 });
    const b = await member(rotationId, { user_id: 12 });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.attributes).toMatchObject({ schedule_rotation_id: rotationId, user_id: 11, position: 1 });
    expect(b.body.data.attributes.position).toBe(2);
    expect(
      (await h.call('PUT', `/v1/schedule_rotation_users/${a.body.data.id}`, doc('schedule_rotation_users', { position: 5 }))).status,
    ).toBe(200);
    const list = await h.call('GET', `/v1/schedule_rotations/${rotationId}/schedule_rotation_users?include=schedule_rotation`);
    expect(list.body.data[0].relationships.schedule_rotation.data).toEqual({ id: rotationId, type: 'schedule_rotations' });
    expect(list.body.included).toEqual([expect.objectContaining({ id: rotationId, type: 'schedule_rotations' })]);
    const withUsers = await h.call('GET', `/v1/schedule_rotations/${rotationId}/schedule_rotation_users?include=user,schedule_rotation`);
    expect(withUsers.body.included.map((r: { type: string; id: string }) => `${r.type}:${r.id}`).sort()).toEqual([
      `schedule_rotations:${rotationId}`,
      'users:11',
      'users:12',
    ]);
    expect((await h.call('GET', `/v1/schedule_rotations/${rotationId}/schedule_rotation_users?include=owner`)).status).toBe(400);
    expect(list.body.data.map((m: { attributes: { user_id: number } }) => m.attributes.user_id)).toEqual([12, 11]);
    expect((await h.call('DELETE', `/v1/schedule_rotation_users/${b.body.data.id}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`)).body.meta.total_count).toBe(1);
    await h.events!.waitFor((es) =>
      es.some((e) => e.routingKey === 'schedule_rotation_user.deleted' && (e.body.data as { id: string }).id === b.body.data.id),
    );
  });

  it('takes only live users of the team, each once', async () => {
    const { rotationId } = await rotation();
    for (const userId of [21, 13, 999]) {
      const res = await member(rotationId, { user_id: userId });
      expect(res.status).toBe(422);
      expect(pointers(res)).toEqual(['/data/attributes/user_id']);
    }
    for (const bad of [{}, { user_id: 'eleven' }, { user_id: 1.5 }, { user_id: 2 ** 40 }, { user_id: 11, role: 'x' }]) {
      expect((await member(rotationId, bad)).status).toBe(422);
    }
    expect((await member(rotationId, { user_id: 14 })).status).toBe(201);
    const again = await member(rotationId, { user_id: 14 });
    expect(again.status).toBe(409);
    expect(pointers(again)).toEqual(['/data/attributes/user_id']);
    const id = (await member(rotationId, { user_id: 11 })).body.data.id;
    expect((await h.call('PUT', `/v1/schedule_rotation_users/${id}`, doc('schedule_rotation_users', { user_id: 14 }))).status).toBe(409);
    expect((await h.call('PUT', `/v1/schedule_rotation_users/${id}`, doc('schedule_rotation_users', { user_id: 21 }))).status).toBe(422);
  });

  it("hides another team's rotations and members", async () => {
    const { rotationId } = await rotation();
    const id = (await member(rotationId, { user_id: 11 })).body.data.id;
    const other = { team_id: 2 };
    expect((await member(rotationId, { user_id: 21 }, other)).status).toBe(404);
    expect((await h.call('GET', `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`, { principal: other })).status).toBe(404);
    expect((await h.call('GET', `/v1/schedule_rotation_users/${id}`, { principal: other })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/schedule_rotation_users/${id}`, { principal: other })).status).toBe(404);
    expect((await member(randomUUID(), { user_id: 11 })).status).toBe(404);
  });
});

describe('schedule rotation active days', () => {
  const day = (rotationId: string, attributes: Record<string, unknown>) =>
    h.call('POST', `/v1/schedule_rotations/${rotationId}/schedule_rotation_active_days`, doc('schedule_rotation_active_days', attributes));

  it('creates, lists, gets, updates with PUT and deletes', async () => {
    const { rotationId } = await rotation();
    const created = await day(rotationId, { day_name: 'R', active_time_attributes: [{ start_time: '09:00:00', end_time: '17:00' }] });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data.attributes).toMatchObject({
      schedule_rotation_id: rotationId,
      day_name: 'R',
      active_time_attributes: [{ start_time: '09:00', end_time: '17:00' }],
    });
    const put = await h.call(
      'PUT',
      `/v1/schedule_rotation_active_days/${id}`,
      doc('schedule_rotation_active_days', {
        day_name: 'U',
        active_time_attributes: [
          { start_time: '20:00', end_time: '00:00' },
          { start_time: '00:00', end_time: '04:00' },
        ],
      }),
    );
    expect(put.status).toBe(200);
    expect(put.body.data.attributes.day_name).toBe('U');
    expect((await h.call('GET', `/v1/schedule_rotations/${rotationId}/schedule_rotation_active_days`)).body.data).toHaveLength(1);
    expect((await h.call('GET', `/v1/schedule_rotation_active_days/${id}`)).status).toBe(200);
    const deleted = await h.call('DELETE', `/v1/schedule_rotation_active_days/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.id).toBe(id);
    expect((await h.call('GET', `/v1/schedule_rotation_active_days/${id}`)).status).toBe(404);
  });

  it('refuses a day twice, a missing day_name and windows that are empty, reversed or overlapping', async () => {
    const { rotationId } = await rotation();
    const nine = [{ start_time: '09:00', end_time: '17:00' }];
    expect((await day(rotationId, { day_name: 'M', active_time_attributes: nine })).status).toBe(201);
    const twice = await day(rotationId, { day_name: 'M', active_time_attributes: nine });
    expect(twice.status).toBe(409);
    expect(pointers(twice)).toEqual(['/data/attributes/day_name']);
    const cases: [Record<string, unknown>, string][] = [
      [{ active_time_attributes: nine }, '/data/attributes/day_name'],
      [{ day_name: 'Monday', active_time_attributes: nine }, '/data/attributes/day_name'],
      [{ day_name: 'T' }, '/data/attributes/active_time_attributes'],
      [{ day_name: 'T', active_time_attributes: [] }, '/data/attributes/active_time_attributes'],
      [
        { day_name: 'T', active_time_attributes: [{ start_time: '17:00', end_time: '09:00' }] },
        '/data/attributes/active_time_attributes/0/end_time',
      ],
      [
        {
          day_name: 'T',
          active_time_attributes: [
            { start_time: '09:00', end_time: '12:00' },
            { start_time: '08:00', end_time: '10:00' },
          ],
        },
        '/data/attributes/active_time_attributes/0/start_time',
      ],
      [
        { day_name: 'T', active_time_attributes: [{ start_time: '25:00', end_time: '26:00' }] },
        '/data/attributes/active_time_attributes/0/start_time',
      ],
      [{ day_name: 'T', active_time_attributes: [{ start_time: '09:00' }] }, '/data/attributes/active_time_attributes/0/end_time'],
      [
        { day_name: 'T', active_time_attributes: Array.from({ length: 25 }, () => ({ start_time: '09:00', end_time: '10:00' })) },
        '/data/attributes/active_time_attributes',
      ],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await day(rotationId, attributes);
      expect([JSON.stringify(attributes).slice(0, 120), res.status]).toEqual([JSON.stringify(attributes).slice(0, 120), 422]);
      expect(pointers(res)).toContain(pointer);
    }
    expect((await h.call('GET', `/v1/schedule_rotations/${rotationId}/schedule_rotation_active_days`)).body.meta.total_count).toBe(1);
  });
});

describe('another team', () => {
  it('gets 404 for every item and every collection under a parent of this team, and changes nothing', async () => {
    const { scheduleId, rotationId } = await rotation();
    const made = await Promise.all([
      h.call('POST', `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`, doc('schedule_rotation_users', { user_id: 11 })),
      h.call(
        'POST',
        `/v1/schedule_rotations/${rotationId}/schedule_rotation_active_days`,
        doc('schedule_rotation_active_days', { day_name: 'M', active_time_attributes: [{ start_time: '09:00', end_time: '17:00' }] }),
      ),
      h.call(
        'POST',
        `/v1/schedules/${scheduleId}/override_shifts`,
        doc('shifts', { starts_at: '2026-12-01T00:00:00Z', ends_at: '2026-12-02T00:00:00Z', user_id: 11 }),
      ),
    ]);
    expect(made.map((r) => r.status)).toEqual([201, 201, 201]);
    const other = { principal: { team_id: 2 } };
    const items: [string, string, Record<string, unknown>][] = [
      [`/v1/schedule_rotations/${rotationId}`, 'schedule_rotations', { name: 'x' }],
      [`/v1/schedule_rotation_users/${made[0].body.data.id}`, 'schedule_rotation_users', { position: 9 }],
      [`/v1/schedule_rotation_active_days/${made[1].body.data.id}`, 'schedule_rotation_active_days', { day_name: 'T' }],
      [`/v1/override_shifts/${made[2].body.data.id}`, 'shifts', { user_id: 21 }],
    ];
    for (const [path, type, attributes] of items) {
      expect((await h.call('GET', path, other)).status).toBe(404);
      expect((await h.call('PUT', path, { ...doc(type, attributes), ...other })).status).toBe(404);
      expect((await h.call('DELETE', path, other)).status).toBe(404);
      expect((await h.call('GET', path)).status).toBe(200);
    }
    for (const path of [
      `/v1/schedule_rotations/${rotationId}/schedule_rotation_active_days`,
      `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`,
      `/v1/schedules/${scheduleId}/override_shifts`,
    ]) {
      expect((await h.call('GET', path, other)).status).toBe(404);
    }
    const day = await h.call('POST', `/v1/schedule_rotations/${rotationId}/schedule_rotation_active_days`, {
      ...doc('schedule_rotation_active_days', { day_name: 'T', active_time_attributes: [{ start_time: '09:00', end_time: '17:00' }] }),
      ...other,
    });
    expect(day.status).toBe(404);
    expect((await h.call('GET', `/v1/schedule_rotations/${rotationId}/schedule_rotation_active_days`)).body.meta.total_count).toBe(1);
  });
});
