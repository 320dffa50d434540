import { type OnCallHarness } from './support/on-call-harness.js';
import { createSchedule, doc, pointers, rotationIn as postRotation, startWithUsers, weekly } from './support/schedules.fixture.js';
import { MAX_ROTATIONS_PER_SCHEDULE } from '../src/domain/schedules/schedule-rotations.resource.js';

let h: OnCallHarness;
beforeAll(async () => {
  h = await startWithUsers();
});
afterAll(async () => h?.close());

const schedule = (attributes: Record<string, unknown> = {}, principal?: Record<string, unknown>) =>
  createSchedule(h, attributes, principal);
const rotationIn = (scheduleId: string, attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
  postRotation(h, scheduleId, attributes, principal);

describe('schedule rotations', () => {
  it('creates under the schedule with defaults, lists by position, updates with PUT and deletes', async () => {
    const scheduleId = await schedule();
    const first = await rotationIn(scheduleId, { ...weekly, time_zone: 'europe/berlin' });
    expect(first.status).toBe(201);
    expect(first.body.data.attributes).toEqual({
      schedule_id: scheduleId,
      name: 'Primary',
      position: 1,
      ...weekly,
      active_all_week: true,
      active_days: [],
      active_time_type: 'all_day',
      active_time_attributes: [],
      time_zone: 'Europe/Berlin',
      start_time: null,
      end_time: null,
    });
    const second = await rotationIn(scheduleId, {
      name: 'Nights',
      schedule_rotationable_type: 'ScheduleCustomRotation',
      schedule_rotationable_attributes: { shift_length: 12, shift_length_unit: 'hours', handoff_time: '07:30:00' },
      time_zone: 'Asia/Kolkata',
      start_time: '2026-11-01T00:00:00+01:00',
      end_time: '2027-01-01T00:00:00Z',
      active_all_week: false,
      active_days: ['M', 'T', 'W', 'R', 'F'],
      active_time_type: 'same_time',
      active_time_attributes: [
        { start_time: '18:00', end_time: '00:00' },
        { start_time: '00:00', end_time: '06:00' },
      ],
    });
    expect(second.status).toBe(201);
    expect(second.body.data.attributes).toMatchObject({
      position: 2,
      time_zone: 'Asia/Kolkata',
      start_time: '2026-10-31T23:00:00.000Z',
      end_time: '2027-01-01T00:00:00.000Z',
      schedule_rotationable_attributes: { shift_length: 12, shift_length_unit: 'hours', handoff_time: '07:30' },
    });
    const id = first.body.data.id;
    const put = await h.call(
      'PUT',
      `/v1/schedule_rotations/${id}`,
      doc('schedule_rotations', { position: 3, schedule_rotationable_type: 'ScheduleBiweeklyRotation' }),
    );
    expect(put.status).toBe(200);
    expect(put.body.data.attributes).toMatchObject({
      position: 3,
      schedule_rotationable_type: 'ScheduleBiweeklyRotation',
      schedule_rotationable_attributes: weekly.schedule_rotationable_attributes,
    });
    const list = await h.call('GET', `/v1/schedules/${scheduleId}/schedule_rotations?include=schedule`);
    expect(list.body.included.map((s: { id: string }) => s.id)).toEqual([scheduleId]);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([second.body.data.id, id]);
    expect((await h.call('DELETE', `/v1/schedule_rotations/${id}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/schedule_rotations/${id}`)).status).toBe(404);
  });

  it("creates a rotation with the reference's schedule_rotation_members, as its users in position order", async () => {
    const scheduleId = await schedule();
    const created = await rotationIn(scheduleId, {
      ...weekly,
      schedule_rotation_members: [
        { member_type: 'User', member_id: '12', position: 2 },
        { member_type: 'User', member_id: '11', position: 1 },
        { member_type: 'User', member_id: 14 },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).not.toHaveProperty('schedule_rotation_members');
    const users = await h.call('GET', `/v1/schedule_rotations/${created.body.data.id}/schedule_rotation_users`);
    expect(users.body.data.map((u: { attributes: { user_id: number } }) => u.attributes.user_id)).toEqual([11, 12, 14]);
    // Each member is announced as a rotation user, as a create of one through its own path is.
    const rotationId = created.body.data.id;
    type Event = { body: { type: string; data: { attributes: { schedule_rotation_id?: string } } } };
    const mine = (es: Event[]) =>
      es.filter((e) => e.body.type === 'schedule_rotation_user.created' && e.body.data.attributes.schedule_rotation_id === rotationId);
    await h.events!.waitFor((es) => mine(es as unknown as Event[]).length === 3);
    expect(mine(h.events!.events as unknown as Event[]).map((e) => e.body.data)).toEqual(users.body.data);

    for (const [members, pointer] of [
      [[{ member_type: 'Schedule', member_id: scheduleId }], '/data/attributes/schedule_rotation_members/0/member_type'],
      [[{ member_type: 'User', member_id: '21' }], '/data/attributes/schedule_rotation_members/0/member_id'],
      [[{ member_type: 'User', member_id: '13' }], '/data/attributes/schedule_rotation_members/0/member_id'],
      [
        [
          { member_type: 'User', member_id: '11' },
          { member_type: 'User', member_id: 11 },
        ],
        '/data/attributes/schedule_rotation_members',
      ],
    ] as const) {
      const refused = await rotationIn(scheduleId, { ...weekly, name: 'Refused', schedule_rotation_members: members });
      expect([pointer, refused.status]).toEqual([pointer, 422]);
      expect(pointers(refused)).toContain(pointer);
    }
    const rotations = await h.call('GET', `/v1/schedules/${scheduleId}/schedule_rotations`);
    expect(rotations.body.data).toHaveLength(1);
  });

  it('refuses attributes that do not fit the type, with a pointer to each', async () => {
    const scheduleId = await schedule();
    const cases: [Record<string, unknown>, string[]][] = [
      [
        { schedule_rotationable_type: 'ScheduleDailyRotation', schedule_rotationable_attributes: {} },
        ['/data/attributes/schedule_rotationable_attributes/handoff_time'],
      ],
      [
        {
          schedule_rotationable_type: 'ScheduleDailyRotation',
          schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' },
        },
        ['/data/attributes/schedule_rotationable_attributes/handoff_day'],
      ],
      [
        {
          schedule_rotationable_type: 'ScheduleWeeklyRotation',
          schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'first_day_of_month' },
        },
        ['/data/attributes/schedule_rotationable_attributes/handoff_day'],
      ],
      [
        {
          schedule_rotationable_type: 'ScheduleMonthlyRotation',
          schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' },
        },
        ['/data/attributes/schedule_rotationable_attributes/handoff_day'],
      ],
      [
        {
          schedule_rotationable_type: 'ScheduleCustomRotation',
          schedule_rotationable_attributes: { shift_length: 400, shift_length_unit: 'days', handoff_time: '09:00' },
        },
        ['/data/attributes/schedule_rotationable_attributes/shift_length'],
      ],
      [
        {
          schedule_rotationable_type: 'ScheduleCustomRotation',
          schedule_rotationable_attributes: { shift_length: 0, shift_length_unit: 'days', handoff_time: '09:00' },
        },
        ['/data/attributes/schedule_rotationable_attributes/shift_length'],
      ],
      [
        { ...weekly, schedule_rotationable_attributes: { handoff_time: '9am', handoff_day: 'M' } },
        ['/data/attributes/schedule_rotationable_attributes/handoff_time'],
      ],
      [
        { ...weekly, schedule_rotationable_attributes: { handoff_time: '09:00:00+02:00', handoff_day: 'M' } },
        ['/data/attributes/schedule_rotationable_attributes/handoff_time'],
      ],
      [{ ...weekly, schedule_rotationable_type: 'weekly' }, ['/data/attributes/schedule_rotationable_type']],
      [{ ...weekly, time_zone: 'Mars/Olympus' }, ['/data/attributes/time_zone']],
      [{ ...weekly, time_zone: '+01:00' }, ['/data/attributes/time_zone']],
      [{ ...weekly, time_zone: 'x'.repeat(10_000) }, ['/data/attributes/time_zone']],
      [{ ...weekly, start_time: '2026-12-01T00:00:00Z', end_time: '2026-11-01T00:00:00Z' }, ['/data/attributes/end_time']],
      [{ ...weekly, start_time: '2026-12-01' }, ['/data/attributes/start_time']],
      [{ ...weekly, start_time: '0000-01-01T00:00:00Z' }, ['/data/attributes/start_time']],
      [{ ...weekly, active_all_week: false }, ['/data/attributes/active_days']],
      [{ ...weekly, active_days: ['M', 'M'] }, ['/data/attributes/active_days']],
      [{ ...weekly, active_days: ['X'] }, ['/data/attributes/active_days/0']],
      [{ ...weekly, active_time_type: 'same_time' }, ['/data/attributes/active_time_attributes']],
      [
        { ...weekly, active_time_attributes: [{ start_time: '10:00', end_time: '09:00' }] },
        ['/data/attributes/active_time_attributes/0/end_time'],
      ],
      [
        {
          ...weekly,
          active_time_attributes: [
            { start_time: '08:00', end_time: '12:00' },
            { start_time: '11:00', end_time: '13:00' },
          ],
        },
        ['/data/attributes/active_time_attributes/1/start_time'],
      ],
    ];
    for (const [attributes, expected] of cases) {
      const res = await rotationIn(scheduleId, attributes);
      expect([JSON.stringify(attributes).slice(0, 200), res.status]).toEqual([JSON.stringify(attributes).slice(0, 200), 422]);
      expect(pointers(res)).toEqual(expect.arrayContaining(expected));
    }
    expect((await rotationIn(scheduleId, { schedule_rotationable_type: 'ScheduleDailyRotation' })).status).toBe(422);
    expect((await h.call('GET', `/v1/schedules/${scheduleId}/schedule_rotations`)).body.data).toEqual([]);
  });

  it('holds a schedule to MAX_ROTATIONS_PER_SCHEDULE rotations, even under racing creates', async () => {
    const scheduleId = await schedule();
    const answers = await Promise.all(Array.from({ length: MAX_ROTATIONS_PER_SCHEDULE + 5 }, () => rotationIn(scheduleId, weekly)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(MAX_ROTATIONS_PER_SCHEDULE);
    expect(answers.filter((a) => a.status === 422).map((a) => a.body.errors[0].code)).toEqual(Array(5).fill('limit_reached'));
    expect((await h.call('GET', `/v1/schedules/${scheduleId}/schedule_rotations`)).body.meta.total_count).toBe(MAX_ROTATIONS_PER_SCHEDULE);
  });

  it('judges a PUT on the merged record', async () => {
    const scheduleId = await schedule();
    const id = (await rotationIn(scheduleId, weekly)).body.data.id;
    const toDaily = await h.call(
      'PUT',
      `/v1/schedule_rotations/${id}`,
      doc('schedule_rotations', { schedule_rotationable_type: 'ScheduleDailyRotation' }),
    );
    expect(toDaily.status).toBe(422);
    expect(pointers(toDaily)).toEqual(['/data/attributes/schedule_rotationable_attributes/handoff_day']);
    const both = await h.call(
      'PUT',
      `/v1/schedule_rotations/${id}`,
      doc('schedule_rotations', {
        schedule_rotationable_type: 'ScheduleDailyRotation',
        schedule_rotationable_attributes: { handoff_time: '08:00' },
      }),
    );
    expect(both.status).toBe(200);
    expect((await h.call('PUT', `/v1/schedule_rotations/${id}`, doc('schedule_rotations', { active_time_type: 'same_time' }))).status).toBe(
      422,
    );
    expect(
      (
        await h.call(
          'PUT',
          `/v1/schedule_rotations/${id}`,
          doc('schedule_rotations', { end_time: '2000-01-01T00:00:00Z', start_time: '2001-01-01T00:00:00Z' }),
        )
      ).status,
    ).toBe(422);
    expect((await h.call('GET', `/v1/schedule_rotations/${id}`)).body.data.attributes.schedule_rotationable_attributes).toEqual({
      handoff_time: '08:00',
    });
  });
});

describe('deleting a schedule', () => {
  it('deletes its rotations, members, active days and overrides, each with its own event', async () => {
    const scheduleId = await schedule();
    const rotation = (await rotationIn(scheduleId, { ...weekly, active_time_type: 'custom' })).body.data.id;
    const member = await h.call(
      'POST',
      `/v1/schedule_rotations/${rotation}/schedule_rotation_users`,
      doc('schedule_rotation_users', { user_id: 11 }),
    );
    const day = await h.call(
      'POST',
      `/v1/schedule_rotations/${rotation}/schedule_rotation_active_days`,
      doc('schedule_rotation_active_days', {
        day_name: 'R',
        active_time_attributes: [{ start_time: '09:00', end_time: '17:00' }],
      }),
    );
    const override = await h.call(
      'POST',
      `/v1/schedules/${scheduleId}/override_shifts`,
      doc('shifts', {
        starts_at: '2026-12-24T18:00:00Z',
        ends_at: '2026-12-26T08:00:00Z',
        user_id: 12,
      }),
    );
    expect([member.status, day.status, override.status]).toEqual([201, 201, 201]);
    expect((await h.call('DELETE', `/v1/schedules/${scheduleId}`)).status).toBe(200);
    const ids = new Map([
      [member.body.data.id, 'schedule_rotation_user'],
      [day.body.data.id, 'schedule_rotation_active_day'],
      [rotation, 'schedule_rotation'],
      [override.body.data.id, 'override_shift'],
      [scheduleId, 'schedule'],
    ]);
    const deletions = () =>
      h.events!.events.filter((e) => e.routingKey.endsWith('.deleted') && ids.has((e.body.data as { id: string }).id));
    await h.events!.waitFor(() => deletions().length === 5);
    expect(deletions().map((e) => e.routingKey)).toEqual([
      'schedule_rotation_user.deleted',
      'schedule_rotation_active_day.deleted',
      'schedule_rotation.deleted',
      'override_shift.deleted',
      'schedule.deleted',
    ]);
    for (const table of ['schedule_rotations', 'schedule_rotation_users', 'schedule_rotation_active_days', 'override_shifts']) {
      expect(
        await h.db
          .knex(table)
          .whereIn('id', [...ids.keys()])
          .select('id'),
      ).toEqual([]);
    }
  });
});
