import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import type { ConformanceOperation } from '../conformance-operation.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;
const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

async function created(ctx: ConformanceContext, path: string, body: unknown): Promise<string> {
  const res = await ctx.call('POST', path, { body });
  if (res.status !== 201) throw new Error(`fixture: POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/**
 * A schedule with a weekly Berlin rotation of the team's admin, and an override of the
 * same user, whose shifts fill October 2026. The admin reaches on-call through auth's
 * events, so the first schedule is retried briefly.
 */
const schedules = new WeakMap<ConformanceContext, Promise<{ scheduleId: string; userId: number }>>();
function scheduleWithShifts(ctx: ConformanceContext) {
  if (!schedules.has(ctx)) {
    schedules.set(
      ctx,
      (async () => {
        const me = await ctx.call('GET', '/v1/users/me', { token: ctx.userToken });
        const userId = Number(me.body.data.id);
        let res;
        for (let tries = 0; tries < 100; tries++) {
          res = await ctx.call('POST', '/v1/schedules', {
            body: doc('schedules', { name: `Shifts ${randomUUID().slice(0, 8)}`, owner_user_id: userId }),
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
        await created(
          ctx,
          `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`,
          doc('schedule_rotation_users', { user_id: userId }),
        );
        await created(
          ctx,
          `/v1/schedules/${scheduleId}/override_shifts`,
          doc('shifts', { starts_at: '2026-10-14T10:00:00Z', ends_at: '2026-10-15T10:00:00Z', user_id: userId }),
        );
        return { scheduleId, userId };
      })(),
    );
  }
  return schedules.get(ctx)!;
}

const OCTOBER = 'from=2026-10-01T00:00:00%2B02:00&to=2026-11-01T00:00:00Z';

/** GET /v1/shifts (issue 12; docs/on-call.md): computed shifts, meta and no links. */
export const shiftOperations: ConformanceOperation[] = [
  {
    method: 'GET',
    path: '/v1/shifts',
    variant: 'a month of a rotation and an override',
    request: async (ctx) => {
      await scheduleWithShifts(ctx);
      return { query: OCTOBER };
    },
    status: 200,
    schema: { reference: 'listShifts', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/shifts',
    variant: 'schedule_ids[], user_ids[] and a page',
    request: async (ctx) => {
      const { scheduleId, userId } = await scheduleWithShifts(ctx);
      return { query: `${OCTOBER}&schedule_ids[]=${scheduleId}&user_ids[]=${userId}&page[size]=2&page[number]=2` };
    },
    status: 200,
    schema: { reference: 'listShifts', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/shifts',
    variant: 'include of user, assignee, shift_override and shift_shadow',
    request: async (ctx) => {
      await scheduleWithShifts(ctx);
      return { query: `${OCTOBER}&include=shift_override,user,assignee,shift_shadow` };
    },
    status: 200,
    schema: { reference: 'listShifts', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/schedules/{id}/shifts',
    request: async (ctx) => ({ params: { id: (await scheduleWithShifts(ctx)).scheduleId }, query: OCTOBER }),
    status: 200,
    schema: { reference: 'getScheduleShifts', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/schedules/{id}/shifts',
    variant: 'unknown id',
    request: (ctx) => ({ params: { id: ctx.unknownId }, query: OCTOBER }),
    status: 404,
    schema: { reference: 'getScheduleShifts', status: 404 },
  },
  {
    method: 'GET',
    path: '/v1/shifts',
    variant: 'a range longer than 366 days',
    request: () => ({ query: 'from=2026-01-01T00:00:00Z&to=2027-06-01T00:00:00Z' }),
    status: 400,
    schema: errorDocument,
  },
  {
    method: 'GET',
    path: '/v1/shifts',
    variant: 'from only: the seven days from it',
    request: async (ctx) => {
      await scheduleWithShifts(ctx);
      return { query: 'from=2026-10-12T00:00:00Z' };
    },
    status: 200,
    schema: { reference: 'listShifts', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/shifts',
    variant: 'no range, as the specification allows: the next seven days',
    request: async (ctx) => {
      await scheduleWithShifts(ctx);
      return {};
    },
    status: 200,
    schema: { reference: 'listShifts', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/shifts',
    variant: 'no credential',
    request: () => ({ query: OCTOBER, token: null }),
    status: 401,
    schema: errorDocument,
  },
];
