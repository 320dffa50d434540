import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from './conformance-system.js';

/** A JSON:API request document. */
export const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

/** POST `body` to `path`; the new record's id, or a fixture error naming the answer. */
export async function created(ctx: ConformanceContext, path: string, body: unknown): Promise<string> {
  const res = await ctx.call('POST', path, { body });
  if (res.status !== 201) throw new Error(`fixture: POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/**
 * A schedule named `<name> …` with a weekly Berlin rotation of the team's admin and an
 * override of the same user on 2026-10-14, so its shifts fill October 2026: the rows of
 * /v1/shifts and /v1/oncalls judge real entries. The admin reaches on-call through auth's
 * events, so the schedule is retried briefly.
 */
export async function scheduleOfAdmin(ctx: ConformanceContext, name: string): Promise<{ scheduleId: string; userId: number }> {
  const me = await ctx.call('GET', '/v1/users/me', { token: ctx.userToken });
  const userId = Number(me.body.data.id);
  let res;
  for (let tries = 0; tries < 100; tries++) {
    res = await ctx.call('POST', '/v1/schedules', {
      body: doc('schedules', { name: `${name} ${randomUUID().slice(0, 8)}`, owner_user_id: userId }),
    });
    if (res.status === 201) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (res?.status !== 201) throw new Error(`fixture: on-call never learnt user ${userId}`);
  const scheduleId = res.body.data.id as string;
  const rotationId = await created(
    ctx,
    `/v1/schedules/${scheduleId}/schedule_rotations`,
    doc('schedule_rotations', {
      name: 'Primary',
      schedule_rotationable_type: 'ScheduleWeeklyRotation',
      schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' },
      time_zone: 'Europe/Berlin',
      start_time: '2026-09-28T09:00:00+02:00',
    }),
  );
  await created(ctx, `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`, doc('schedule_rotation_users', { user_id: userId }));
  await created(
    ctx,
    `/v1/schedules/${scheduleId}/override_shifts`,
    doc('shifts', { starts_at: '2026-10-14T10:00:00Z', ends_at: '2026-10-15T10:00:00Z', user_id: userId }),
  );
  return { scheduleId, userId };
}
