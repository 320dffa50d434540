import type { ConformanceContext } from '../support/conformance-system.js';
import type { ConformanceOperation } from '../conformance-operation.js';
import { scheduleOfAdmin } from '../support/schedule.fixture.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;

/** The admin's schedule whose shifts fill October 2026 (support/schedule.fixture.ts), made once per system. */
const schedules = new WeakMap<ConformanceContext, Promise<{ scheduleId: string; userId: number }>>();
function scheduleWithShifts(ctx: ConformanceContext) {
  if (!schedules.has(ctx)) schedules.set(ctx, scheduleOfAdmin(ctx, 'Shifts'));
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
