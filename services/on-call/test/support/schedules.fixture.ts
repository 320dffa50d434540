import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { startOnCall, type OnCallHarness } from './on-call-harness.js';
import { seedUsers } from './users.fixture.js';

type Attributes = Record<string, unknown>;

/** A request with a JSON:API document of `type`. */
export const doc = (type: string, attributes: Attributes) => ({ body: { data: { type, attributes } } });
/** The pointers of a 422's errors. */
export const pointers = (res: { body: { errors: { source?: { pointer?: string } }[] } }) => res.body.errors.map((e) => e.source?.pointer);
export const weekly = {
  schedule_rotationable_type: 'ScheduleWeeklyRotation',
  schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' },
};

/**
 * on-call with every event collected and the users the schedule suites name: 11, 12 and 14
 * of team 1, 21 of team 2, and 13 of team 1 deleted in auth.
 */
export async function startWithUsers(): Promise<OnCallHarness> {
  const h = await startOnCall({ eventPattern: '#' });
  await seedUsers(h.db.knex as Knex, [
    { team_id: 1, user_id: 11 },
    { team_id: 1, user_id: 12 },
    { team_id: 1, user_id: 14 },
    { team_id: 2, user_id: 21 },
    { team_id: 1, user_id: 13, deleted: true },
  ]);
  return h;
}

/** A new schedule of the caller's team owned by user 11; its id. */
export async function createSchedule(h: OnCallHarness, attributes: Attributes = {}, principal?: Attributes): Promise<string> {
  const res = await h.create('schedules', { name: `On call ${randomUUID().slice(0, 6)}`, owner_user_id: 11, ...attributes }, { principal });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

/** POST of a rotation named Primary under a schedule. */
export const rotationIn = (h: OnCallHarness, scheduleId: string, attributes: Attributes, principal?: Attributes) =>
  h.call('POST', `/v1/schedules/${scheduleId}/schedule_rotations`, {
    ...doc('schedule_rotations', { name: 'Primary', ...attributes }),
    principal,
  });

/** A new schedule with one daily rotation. */
export async function createRotation(h: OnCallHarness): Promise<{ scheduleId: string; rotationId: string }> {
  const scheduleId = await createSchedule(h);
  const res = await rotationIn(h, scheduleId, {
    schedule_rotationable_type: 'ScheduleDailyRotation',
    schedule_rotationable_attributes: { handoff_time: '09:00' },
    active_time_type: 'custom',
  });
  expect(res.status).toBe(201);
  return { scheduleId, rotationId: res.body.data.id };
}

/**
 * Schedule "Primary" owned by the first of `userIds`, with one daily rotation (handoff at
 * 09:00 UTC since 2026-11-01) dealing turns to `userIds` in order: the suites reading who
 * is on call (oncalls, escalation plans) count on these turns; its id.
 */
export async function createDailySchedule(h: OnCallHarness, userIds: number[]): Promise<string> {
  const created = async (path: string, type: string, attributes: Attributes) => {
    const res = await h.call('POST', path, doc(type, attributes));
    expect([res.status, res.body.errors]).toEqual([201, undefined]);
    return res.body.data.id as string;
  };
  const schedule = await created('/v1/schedules', 'schedules', { name: 'Primary', owner_user_id: userIds[0] });
  const rotation = await created(`/v1/schedules/${schedule}/schedule_rotations`, 'schedule_rotations', {
    name: 'Daily',
    schedule_rotationable_type: 'ScheduleDailyRotation',
    schedule_rotationable_attributes: { handoff_time: '09:00' },
    time_zone: 'Etc/UTC',
    start_time: '2026-11-01T09:00:00Z',
  });
  for (const user_id of userIds)
    await created(`/v1/schedule_rotations/${rotation}/schedule_rotation_users`, 'schedule_rotation_users', { user_id });
  return schedule;
}

/** A JSON:API create at `path` that must answer 201; its resource object. */
export async function createdAt(h: OnCallHarness, path: string, type: string, attributes: Attributes) {
  const res = await h.call('POST', path, doc(type, attributes));
  expect([res.status, res.body.errors]).toEqual([201, undefined]);
  return res.body.data;
}

/** A schedule named Primary, owned by `userId`, whose daily rotation has only `userId`: always on call. Its id. */
export async function alwaysOnCall(h: OnCallHarness, userId: number): Promise<string> {
  const schedule = (await createdAt(h, '/v1/schedules', 'schedules', { name: 'Primary', owner_user_id: userId })).id as string;
  const rotation = (
    await createdAt(h, `/v1/schedules/${schedule}/schedule_rotations`, 'schedule_rotations', {
      name: `Always ${userId}`,
      schedule_rotationable_type: 'ScheduleDailyRotation',
      schedule_rotationable_attributes: { handoff_time: '09:00' },
      time_zone: 'Etc/UTC',
      start_time: '2026-01-01T09:00:00Z',
    })
  ).id as string;
  await createdAt(h, `/v1/schedule_rotations/${rotation}/schedule_rotation_users`, 'schedule_rotation_users', { user_id: userId });
  return schedule;
}
