import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;
const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
const unique = () => randomUUID().slice(0, 8);

/**
 * The id of the team's admin user, once on-call's users read model has it (auth's
 * `user.*` events reach on-call asynchronously: a schedule naming it is retried briefly).
 */
const owners = new WeakMap<ConformanceContext, Promise<number>>();
function ownerId(ctx: ConformanceContext): Promise<number> {
  if (!owners.has(ctx)) {
    owners.set(
      ctx,
      (async () => {
        const me = await ctx.call('GET', '/v1/users/me', { token: ctx.userToken });
        const id = Number(me.body.data.id);
        for (let tries = 0; tries < 100; tries++) {
          const res = await ctx.call('POST', '/v1/schedules', { body: doc('schedules', { name: `Probe ${unique()}`, owner_user_id: id }) });
          if (res.status === 201) return id;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`fixture: on-call never learnt user ${id}`);
      })(),
    );
  }
  return owners.get(ctx)!;
}

async function created(ctx: ConformanceContext, path: string, body: unknown): Promise<string> {
  const res = await ctx.call('POST', path, { body });
  if (res.status !== 201) throw new Error(`fixture: POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

const schedule = async (ctx: ConformanceContext) =>
  created(ctx, '/v1/schedules', doc('schedules', { name: `On call ${unique()}`, owner_user_id: await ownerId(ctx) }));
const weekly = {
  schedule_rotationable_type: 'ScheduleWeeklyRotation',
  schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' },
};
const rotation = async (ctx: ConformanceContext) =>
  created(
    ctx,
    `/v1/schedules/${await schedule(ctx)}/schedule_rotations`,
    doc('schedule_rotations', { name: 'Primary', ...weekly, active_time_type: 'custom' }),
  );
const rotationUser = async (ctx: ConformanceContext) =>
  created(
    ctx,
    `/v1/schedule_rotations/${await rotation(ctx)}/schedule_rotation_users`,
    doc('schedule_rotation_users', { user_id: await ownerId(ctx) }),
  );
const nineToFive = [{ start_time: '09:00', end_time: '17:00' }];
const activeDay = async (ctx: ConformanceContext) =>
  created(
    ctx,
    `/v1/schedule_rotations/${await rotation(ctx)}/schedule_rotation_active_days`,
    doc('schedule_rotation_active_days', { day_name: 'R', active_time_attributes: nineToFive }),
  );
const overrideBody = async (ctx: ConformanceContext) =>
  doc('shifts', { starts_at: '2026-12-24T18:00:00+01:00', ends_at: '2026-12-26T08:00:00+01:00', user_id: await ownerId(ctx) });
const overrideShift = async (ctx: ConformanceContext) =>
  created(ctx, `/v1/schedules/${await schedule(ctx)}/override_shifts`, await overrideBody(ctx));

const ROTATION_KINDS: [string, Record<string, unknown>][] = [
  ['daily', { schedule_rotationable_type: 'ScheduleDailyRotation', schedule_rotationable_attributes: { handoff_time: '08:30' } }],
  [
    'weekly, active on weekdays at the same time',
    {
      ...weekly,
      active_all_week: false,
      active_days: ['M', 'T', 'W', 'R', 'F'],
      active_time_type: 'same_time',
      active_time_attributes: nineToFive,
    },
  ],
  [
    'biweekly',
    {
      schedule_rotationable_type: 'ScheduleBiweeklyRotation',
      schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'F' },
    },
  ],
  [
    'monthly',
    {
      schedule_rotationable_type: 'ScheduleMonthlyRotation',
      schedule_rotationable_attributes: { handoff_time: '00:00', handoff_day: 'first_day_of_month' },
    },
  ],
  [
    'custom, 12 hours, bounded in time',
    {
      schedule_rotationable_type: 'ScheduleCustomRotation',
      schedule_rotationable_attributes: { shift_length: 12, shift_length_unit: 'hours', handoff_time: '07:00' },
      time_zone: 'Europe/Berlin',
      start_time: '2026-11-01T00:00:00+01:00',
      end_time: '2027-11-01T00:00:00+01:00',
      position: 4,
    },
  ],
];

/** Schedules (issue 12, the reference's schedules). */
const scheduleRows: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/schedules',
    variant: 'every attribute we take',
    request: async (ctx) => ({
      body: doc('schedules', {
        name: `Platform ${unique()}`,
        description: 'Days',
        all_time_coverage: true,
        owner_group_ids: [await ctx.create.team()],
        owner_user_id: await ownerId(ctx),
      }),
    }),
    status: 201,
    schema: { reference: 'createSchedule', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/schedules',
    variant: 'owner_user_id missing',
    request: () => ({ body: doc('schedules', { name: 'x' }) }),
    status: 422,
    schema: { reference: 'createSchedule', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/schedules',
    variant: 'an owner who is no user of the team',
    request: () => ({ body: doc('schedules', { name: 'x', owner_user_id: 2_000_000_000 }) }),
    status: 422,
    schema: { reference: 'createSchedule', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/schedules',
    variant: 'an owner group that is no team of ours',
    request: async (ctx) => ({ body: doc('schedules', { name: 'x', owner_user_id: await ownerId(ctx), owner_group_ids: ['platform'] }) }),
    status: 422,
    schema: { reference: 'createSchedule', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/schedules',
    variant: 'no credential',
    request: () => ({ body: doc('schedules', { name: 'x', owner_user_id: 1 }), token: null }),
    status: 401,
    schema: { reference: 'createSchedule', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/schedules',
    request: async (ctx) => {
      await schedule(ctx);
      return {};
    },
    status: 200,
    schema: { reference: 'listSchedules', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/schedules',
    variant: 'filters and a page',
    request: () => ({
      query: 'filter[search]=call&filter[name][not_in]=a,b&filter[created_at][gte]=2020-01-01T00:00:00Z&page[size]=2&page[number]=1',
    }),
    status: 200,
    schema: { reference: 'listSchedules', status: 200 },
  },
  { method: 'GET', path: '/v1/schedules', variant: 'no credential', request: () => ({ token: null }), status: 401, schema: errorDocument },
  {
    method: 'GET',
    path: '/v1/schedules/{id}',
    request: async (ctx) => ({ params: { id: await schedule(ctx) } }),
    status: 200,
    schema: { reference: 'getSchedule', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/schedules/{id}',
    variant: 'with its owner included',
    request: async (ctx) => ({ params: { id: await schedule(ctx) }, query: 'include=owner_user' }),
    status: 200,
    schema: { reference: 'getSchedule', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/schedules/{id}',
    request: async (ctx) => ({
      params: { id: await schedule(ctx) },
      body: doc('schedules', { description: null, all_time_coverage: null, owner_group_ids: null }),
    }),
    status: 200,
    schema: { reference: 'updateSchedule', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/schedules/{id}',
    request: async (ctx) => ({ params: { id: await schedule(ctx) } }),
    status: 200,
    schema: { reference: 'deleteSchedule', status: 200 },
  },
  ...unknownIdRows('/v1/schedules/{id}', [
    ['GET', 'getSchedule'],
    ['PUT', 'updateSchedule', doc('schedules', { name: 'x' })],
    ['DELETE', 'deleteSchedule'],
  ]),
];

/** Schedule rotations, their users and active days (issue 12; docs/on-call.md). */
const rotationOperations: ConformanceOperation[] = [
  ...ROTATION_KINDS.map(([variant, attributes]): ConformanceOperation => ({
    method: 'POST',
    path: '/v1/schedules/{schedule_id}/schedule_rotations',
    variant,
    request: async (ctx) => ({
      params: { schedule_id: await schedule(ctx) },
      body: doc('schedule_rotations', { name: `R ${unique()}`, ...attributes }),
    }),
    status: 201,
    schema: { reference: 'createScheduleRotation', status: 201 },
  })),
  {
    method: 'POST',
    path: '/v1/schedules/{schedule_id}/schedule_rotations',
    variant: "with the reference's schedule_rotation_members",
    request: async (ctx) => ({
      params: { schedule_id: await schedule(ctx) },
      body: doc('schedule_rotations', {
        name: `R ${unique()}`,
        ...weekly,
        schedule_rotation_members: [{ member_type: 'User', member_id: String(await ownerId(ctx)), position: 1 }],
      }),
    }),
    status: 201,
    schema: { reference: 'createScheduleRotation', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/schedules/{schedule_id}/schedule_rotations',
    variant: 'attributes of another type',
    request: async (ctx) => ({
      params: { schedule_id: await schedule(ctx) },
      body: doc('schedule_rotations', { ...weekly, name: 'x', schedule_rotationable_type: 'ScheduleDailyRotation' }),
    }),
    status: 422,
    schema: { reference: 'createScheduleRotation', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/schedules/{schedule_id}/schedule_rotations',
    variant: 'no credential',
    request: (ctx) => ({ params: { schedule_id: ctx.unknownId }, body: doc('schedule_rotations', { name: 'x', ...weekly }), token: null }),
    status: 401,
    schema: { reference: 'createScheduleRotation', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/schedules/{schedule_id}/schedule_rotations',
    variant: 'sorted',
    request: async (ctx) => ({ params: { schedule_id: await schedule(ctx) }, query: 'sort=-position' }),
    status: 200,
    schema: { reference: 'listScheduleRotations', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/schedules/{schedule_id}/schedule_rotations',
    variant: 'with its schedule included',
    request: async (ctx) => {
      const scheduleId = await schedule(ctx);
      await created(ctx, `/v1/schedules/${scheduleId}/schedule_rotations`, doc('schedule_rotations', { name: 'Primary', ...weekly }));
      return { params: { schedule_id: scheduleId }, query: 'include=schedule' };
    },
    status: 200,
    schema: { reference: 'listScheduleRotations', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/schedules/{schedule_id}/schedule_rotations',
    variant: 'an unknown schedule',
    request: (ctx) => ({ params: { schedule_id: ctx.unknownId } }),
    status: 404,
    schema: errorDocument,
  },
  {
    method: 'GET',
    path: '/v1/schedule_rotations/{id}',
    request: async (ctx) => ({ params: { id: await rotation(ctx) } }),
    status: 200,
    schema: { reference: 'getScheduleRotation', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/schedule_rotations/{id}',
    request: async (ctx) => ({
      params: { id: await rotation(ctx) },
      body: doc('schedule_rotations', {
        schedule_rotationable_type: 'ScheduleMonthlyRotation',
        schedule_rotationable_attributes: { handoff_time: '10:00', handoff_day: 'last_day_of_month' },
        time_zone: 'America/New_York',
      }),
    }),
    status: 200,
    schema: { reference: 'updateScheduleRotation', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/schedule_rotations/{id}',
    request: async (ctx) => ({ params: { id: await rotation(ctx) } }),
    status: 200,
    schema: { reference: 'deleteScheduleRotation', status: 200 },
  },
  ...unknownIdRows('/v1/schedule_rotations/{id}', [
    ['GET', 'getScheduleRotation'],
    ['PUT', 'updateScheduleRotation', doc('schedule_rotations', weekly)],
    ['DELETE', 'deleteScheduleRotation'],
  ]),

  {
    method: 'POST',
    path: '/v1/schedule_rotations/{schedule_rotation_id}/schedule_rotation_users',
    request: async (ctx) => ({
      params: { schedule_rotation_id: await rotation(ctx) },
      body: doc('schedule_rotation_users', { user_id: await ownerId(ctx), position: 2 }),
    }),
    status: 201,
    schema: { reference: 'createScheduleRotationUser', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/schedule_rotations/{schedule_rotation_id}/schedule_rotation_users',
    variant: 'a user of no team',
    request: async (ctx) => ({
      params: { schedule_rotation_id: await rotation(ctx) },
      body: doc('schedule_rotation_users', { user_id: 2_000_000_000 }),
    }),
    status: 422,
    schema: { reference: 'createScheduleRotationUser', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/schedule_rotations/{schedule_rotation_id}/schedule_rotation_users',
    variant: 'no credential',
    request: (ctx) => ({
      params: { schedule_rotation_id: ctx.unknownId },
      body: doc('schedule_rotation_users', { user_id: 1 }),
      token: null,
    }),
    status: 401,
    schema: { reference: 'createScheduleRotationUser', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/schedule_rotations/{schedule_rotation_id}/schedule_rotation_users',
    request: async (ctx) => ({ params: { schedule_rotation_id: await rotation(ctx) } }),
    status: 200,
    schema: { reference: 'listScheduleRotationUsers', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/schedule_rotations/{schedule_rotation_id}/schedule_rotation_users',
    variant: 'with their rotation included',
    request: async (ctx) => {
      const rotationId = await rotation(ctx);
      await created(
        ctx,
        `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`,
        doc('schedule_rotation_users', { user_id: await ownerId(ctx) }),
      );
      return { params: { schedule_rotation_id: rotationId }, query: 'include=schedule_rotation' };
    },
    status: 200,
    schema: { reference: 'listScheduleRotationUsers', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/schedule_rotation_users/{id}',
    request: async (ctx) => ({ params: { id: await rotationUser(ctx) } }),
    status: 200,
    schema: { reference: 'getScheduleRotationUser', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/schedule_rotation_users/{id}',
    request: async (ctx) => ({ params: { id: await rotationUser(ctx) }, body: doc('schedule_rotation_users', { position: 7 }) }),
    status: 200,
    schema: { reference: 'updateScheduleRotationUser', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/schedule_rotation_users/{id}',
    request: async (ctx) => ({ params: { id: await rotationUser(ctx) } }),
    status: 200,
    schema: { reference: 'deleteScheduleRotationUser', status: 200 },
  },
  ...unknownIdRows('/v1/schedule_rotation_users/{id}', [
    ['GET', 'getScheduleRotationUser'],
    ['PUT', 'updateScheduleRotationUser', doc('schedule_rotation_users', { position: 1 })],
    ['DELETE', 'deleteScheduleRotationUser'],
  ]),

  {
    method: 'POST',
    path: '/v1/schedule_rotations/{schedule_rotation_id}/schedule_rotation_active_days',
    request: async (ctx) => ({
      params: { schedule_rotation_id: await rotation(ctx) },
      body: doc('schedule_rotation_active_days', {
        day_name: 'U',
        active_time_attributes: [
          { start_time: '00:00', end_time: '06:00' },
          { start_time: '18:00', end_time: '00:00' },
        ],
      }),
    }),
    status: 201,
    schema: { reference: 'createScheduleRotationActiveDay', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/schedule_rotations/{schedule_rotation_id}/schedule_rotation_active_days',
    variant: 'day_name missing',
    request: async (ctx) => ({
      params: { schedule_rotation_id: await rotation(ctx) },
      body: doc('schedule_rotation_active_days', { active_time_attributes: nineToFive }),
    }),
    status: 422,
    schema: { reference: 'createScheduleRotationActiveDay', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/schedule_rotations/{schedule_rotation_id}/schedule_rotation_active_days',
    variant: 'no credential',
    request: (ctx) => ({
      params: { schedule_rotation_id: ctx.unknownId },
      body: doc('schedule_rotation_active_days', { day_name: 'M', active_time_attributes: nineToFive }),
      token: null,
    }),
    status: 401,
    schema: { reference: 'createScheduleRotationActiveDay', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/schedule_rotations/{schedule_rotation_id}/schedule_rotation_active_days',
    request: async (ctx) => ({ params: { schedule_rotation_id: await rotation(ctx) } }),
    status: 200,
    schema: { reference: 'listScheduleRotationActiveDays', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/schedule_rotation_active_days/{id}',
    request: async (ctx) => ({ params: { id: await activeDay(ctx) } }),
    status: 200,
    schema: { reference: 'getScheduleRotationActiveDay', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/schedule_rotation_active_days/{id}',
    request: async (ctx) => ({
      params: { id: await activeDay(ctx) },
      body: doc('schedule_rotation_active_days', { day_name: 'F', active_time_attributes: [{ start_time: '10:00', end_time: '14:00' }] }),
    }),
    status: 200,
    schema: { reference: 'updateScheduleRotationActiveDay', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/schedule_rotation_active_days/{id}',
    request: async (ctx) => ({ params: { id: await activeDay(ctx) } }),
    status: 200,
    schema: { reference: 'deleteScheduleRotationActiveDay', status: 200 },
  },
  ...unknownIdRows('/v1/schedule_rotation_active_days/{id}', [
    ['GET', 'getScheduleRotationActiveDay'],
    ['PUT', 'updateScheduleRotationActiveDay', doc('schedule_rotation_active_days', { day_name: 'M' })],
    ['DELETE', 'deleteScheduleRotationActiveDay'],
  ]),
];

/** Override shifts (issue 12; JSON:API type shifts). */
const overrideShiftOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/schedules/{schedule_id}/override_shifts',
    request: async (ctx) => ({ params: { schedule_id: await schedule(ctx) }, body: await overrideBody(ctx) }),
    status: 201,
    schema: { reference: 'createOverrideShift', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/schedules/{schedule_id}/override_shifts',
    variant: 'ends before it starts',
    request: async (ctx) => ({
      params: { schedule_id: await schedule(ctx) },
      body: doc('shifts', { starts_at: '2026-12-02T00:00:00Z', ends_at: '2026-12-01T00:00:00Z', user_id: await ownerId(ctx) }),
    }),
    status: 422,
    schema: { reference: 'createOverrideShift', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/schedules/{schedule_id}/override_shifts',
    variant: 'no credential',
    request: async (ctx) => ({ params: { schedule_id: ctx.unknownId }, body: await overrideBody(ctx), token: null }),
    status: 401,
    schema: { reference: 'createOverrideShift', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/schedules/{schedule_id}/override_shifts',
    request: async (ctx) => {
      const scheduleId = await schedule(ctx);
      await created(ctx, `/v1/schedules/${scheduleId}/override_shifts`, await overrideBody(ctx));
      return { params: { schedule_id: scheduleId } };
    },
    status: 200,
    schema: { reference: 'listOverrideShifts', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/schedules/{schedule_id}/override_shifts',
    variant: 'with users and the schedule included',
    request: async (ctx) => {
      const scheduleId = await schedule(ctx);
      await created(ctx, `/v1/schedules/${scheduleId}/override_shifts`, await overrideBody(ctx));
      return { params: { schedule_id: scheduleId }, query: 'include=user,schedule' };
    },
    status: 200,
    schema: { reference: 'listOverrideShifts', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/override_shifts/{id}',
    request: async (ctx) => ({ params: { id: await overrideShift(ctx) } }),
    status: 200,
    schema: { reference: 'getOverrideShift', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/override_shifts/{id}',
    request: async (ctx) => ({ params: { id: await overrideShift(ctx) }, body: doc('shifts', { user_id: await ownerId(ctx) }) }),
    status: 200,
    schema: { reference: 'updateOverrideShift', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/override_shifts/{id}',
    request: async (ctx) => ({ params: { id: await overrideShift(ctx) } }),
    status: 200,
    schema: { reference: 'deleteOverrideShift', status: 200 },
  },
  ...unknownIdRows('/v1/override_shifts/{id}', [
    ['GET', 'getOverrideShift'],
    ['PUT', 'updateOverrideShift', doc('shifts', { user_id: 1 })],
    ['DELETE', 'deleteOverrideShift'],
  ]),
];

export const scheduleOperations: ConformanceOperation[] = [...scheduleRows, ...rotationOperations, ...overrideShiftOperations];
