import type { Principal } from '@firewatch/auth';
import { pageOfList, type Page } from '@firewatch/jsonapi';
import type { Row } from '@firewatch/resource-kit';
import { BadRequestError } from '@firewatch/errors';
import { planShifts, TooManyInputsError, TooManyShiftsError, type Shift } from '../shifts/index.js';
import type { OnCallResourceDeps, ShiftReadBounds } from '../on-call.deps.js';
import { readRotations } from './shift-inputs.js';
import { rangeOf, type ShiftParams } from './shifts.params.js';

/**
 * The work one request may do (src/domain/shifts/work-budget.ts: a unit per turn, per
 * active window of a day and per shift piece): MAX_WORK for the range, plus
 * WORK_PER_ROTATION for each rotation read, since every rotation costs its edge turns
 * however short the range (a 1-hour look at 2,000 daily rotations is ~21,000 units).
 * The most one request can spend, at SHIFT_READ_BOUNDS' 2,000 rotations, is then 120,000
 * units (280,000 units, 10,000 rotations, took at most 370 ms answered or refused on a
 * 2-core machine); beyond is a 400, not a request that holds the service's event loop.
 */
export const MAX_WORK = 80_000;
export const WORK_PER_ROTATION = 20;

/**
 * What one request reads before any budget applies (security issue 19, section 6). A team
 * at the limits holds 10,000 rotations and 1,000,000 members: reading them all took 4–5 s
 * and 1.2 GB of heap on a 2-core machine, 4 µs a member slot and 40 µs a rotation with its
 * days. 2,000 rotations are the 100 schedules `schedule_ids[]` names at 20 each (about
 * 90 ms, then at most 120,000 work units); 20,000 slots are ten full schedules (about
 * 90 ms, 30 MB). One schedule at the limits (20 rotations, 2,000 members) always fits.
 */
export const SHIFT_READ_BOUNDS: ShiftReadBounds = { rotations: 2_000, memberSlots: 20_000 };

const iso = (ms: number) => new Date(ms).toISOString();

/** A final shift as the `shifts` declaration serialises it. */
export function shiftRow(s: Shift): Row {
  return {
    id: s.id,
    schedule_id: s.schedule_id,
    rotation_id: s.rotation_id,
    override_id: s.override_id,
    user_id: s.user_id,
    starts_at: iso(s.starts_at),
    ends_at: iso(s.ends_at),
    is_override: s.is_override,
    is_shadow: false,
  };
}

/**
 * The final shifts of the schedules the caller may see (a group key: its groups' schedules,
 * as for GET /v1/schedules; a record-scoped key: the schedules it names), or of those among
 * `scheduleIds`, overlapping [from, to).
 */
export async function teamShifts(
  deps: OnCallResourceDeps,
  principal: Principal,
  from: number,
  to: number,
  scheduleIds?: readonly string[],
): Promise<Shift[]> {
  const teamId = principal.team_id;
  const schedules = await deps.shifts.scheduleIds({ teamId, scheduleIds, groupIds: principal.group_ids, recordIds: principal.record_ids });
  return schedulesShifts(deps, teamId, schedules, from, to);
}

/**
 * The final shifts of the team's schedules `schedules` (ids already narrowed to what the
 * reader may see) overlapping [from, to), within the read bounds and work budget of one
 * request (400s beyond, as GET /v1/shifts answers them).
 */
export async function schedulesShifts(
  deps: Pick<OnCallResourceDeps, 'shifts' | 'shiftReads'>,
  teamId: number,
  schedules: readonly string[],
  from: number,
  to: number,
): Promise<Shift[]> {
  if (!schedules.length) return [];
  const scope = { teamId, scheduleIds: schedules };
  const rotations = await readRotations(deps.shifts, { ...scope, bounds: deps.shiftReads }).catch((err: unknown) => {
    if (!(err instanceof TooManyInputsError)) throw err;
    throw new BadRequestError(
      `the schedules asked for hold more than ${err.limit} ${err.what}, more than one request reads; name fewer schedules with schedule_ids[] (or ask one schedule's shifts at /v1/schedules/{id}/shifts).`,
      {
        source: { parameter: 'schedule_ids[]' },
        code: 'selection_too_large',
      },
    );
  });
  const maxWork = MAX_WORK + WORK_PER_ROTATION * rotations.length;
  try {
    return await planShifts({
      rotations,
      from,
      to,
      maxWork,
      overrides: (lo, hi, limit) => deps.shifts.overrides(scope, lo, hi, limit),
      skipped: deps.shifts.skipped,
    });
  } catch (err) {
    if (!(err instanceof TooManyShiftsError)) throw err;
    throw new BadRequestError(
      `computing from..to for these schedules' rotations takes more than ${maxWork} work units (turns, active windows, shifts); ask for a shorter range or fewer schedules (schedule_ids[]).`,
      {
        source: { parameter: 'to' },
        code: 'range_too_large',
      },
    );
  }
}

/** The page of a shifts list and the `meta` the reference gives it (no links). */
export async function listShifts(ctx: { principal: Principal; deps: OnCallResourceDeps; params: Row; page: Page; parent?: Row }) {
  const params = ctx.params as ShiftParams;
  const scheduleIds = ctx.parent ? [String(ctx.parent.id)] : params['schedule_ids[]'];
  const { from, to } = rangeOf(params);
  let shifts = await teamShifts(ctx.deps, ctx.principal, from, to, scheduleIds);
  const users = params['user_ids[]'];
  if (users) shifts = shifts.filter((s) => users.includes(s.user_id));
  return pageOfList(shifts, ctx.page, shiftRow);
}
