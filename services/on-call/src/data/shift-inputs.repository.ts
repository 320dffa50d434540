import type { Knex } from 'knex';
import type { Logger } from '@firewatch/logger';
import type { Transaction } from '@firewatch/resource-kit';
import type { ShiftsDeps } from '../domain/shift-deps.js';
import type { UsersDeps } from '../domain/users/users-deps.js';
import { activeWeekOf, type RotationSpec, type RotationType, type TimeWindow } from '../domain/shifts/index.js';

const TYPES: Record<string, RotationType> = {
  ScheduleDailyRotation: 'daily', ScheduleWeeklyRotation: 'weekly', ScheduleBiweeklyRotation: 'biweekly',
  ScheduleMonthlyRotation: 'monthly', ScheduleCustomRotation: 'custom',
};

interface RotationRow {
  id: string; schedule_id: string; position: number; schedule_rotationable_type: string;
  schedule_rotationable_attributes: { handoff_time?: string; handoff_day?: string; shift_length?: number; shift_length_unit?: 'hours' | 'days' | 'weeks' };
  time_zone: string; start_time: Date | null; end_time: Date | null; created_at: Date;
  active_all_week: boolean; active_days: string[]; active_time_type: string; active_time_attributes: TimeWindow[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Scope = { teamId?: number; scheduleIds?: readonly string[] };

function scoped<T extends Knex.QueryBuilder>(q: T, scope: Scope, alias: string): T {
  if (scope.teamId !== undefined) q.where(`${alias}.team_id`, scope.teamId);
  if (scope.scheduleIds) q.whereIn(`${alias}.schedule_id`, [...scope.scheduleIds]);
  return q;
}

/** Reads schedules' rotations, members, active days and overrides (sched-a's tables) as the shift engine's input. */
export function createShiftInputsRepository(knex: Knex, users: UsersDeps, logger?: Logger): ShiftsDeps {
  return {
    async rotations(scope) {
      const rows: RotationRow[] = await scoped(knex('schedule_rotations as r').select('r.*'), scope, 'r');
      if (!rows.length) return [];
      const ids = rows.map((r) => r.id);
      const members: { schedule_rotation_id: string; user_id: number }[] = await knex('schedule_rotation_users')
        .whereIn('schedule_rotation_id', ids).orderBy([{ column: 'position' }, { column: 'created_at' }, { column: 'id' }])
        .select('schedule_rotation_id', 'user_id');
      const days: { schedule_rotation_id: string; day_name: string; active_time_attributes: TimeWindow[] }[] = await knex('schedule_rotation_active_days')
        .whereIn('schedule_rotation_id', ids).select('schedule_rotation_id', 'day_name', 'active_time_attributes');
      return rows.filter((r) => TYPES[r.schedule_rotationable_type]).map((r): RotationSpec => ({
        id: r.id,
        schedule_id: r.schedule_id,
        position: r.position,
        type: TYPES[r.schedule_rotationable_type]!,
        handoff_time: r.schedule_rotationable_attributes.handoff_time ?? '00:00',
        handoff_day: r.schedule_rotationable_attributes.handoff_day ?? null,
        shift_length: r.schedule_rotationable_attributes.shift_length ?? null,
        shift_length_unit: r.schedule_rotationable_attributes.shift_length_unit ?? null,
        time_zone: r.time_zone,
        starts_at: (r.start_time ?? r.created_at).getTime(),
        ends_at: r.end_time ? r.end_time.getTime() : null,
        members: members.filter((m) => m.schedule_rotation_id === r.id).map((m) => m.user_id),
        active: activeWeekOf({ ...r, active_day_rows: days.filter((d) => d.schedule_rotation_id === r.id) }),
      }));
    },
    async overrides(scope, from, to) {
      const rows: { id: string; schedule_id: string; user_id: number; starts_at: Date; ends_at: Date; created_at: Date }[] =
        await scoped(knex('override_shifts as o'), scope, 'o').where('o.ends_at', '>', new Date(from)).where('o.starts_at', '<', new Date(to))
          .select('o.id', 'o.schedule_id', 'o.user_id', 'o.starts_at', 'o.ends_at', 'o.created_at');
      return rows.map((o) => ({ id: o.id, schedule_id: o.schedule_id, user_id: o.user_id, starts_at: o.starts_at.getTime(), ends_at: o.ends_at.getTime(), created_at: o.created_at.getTime() }));
    },
    async scheduleIds({ teamId, scheduleIds, groupIds, recordIds }) {
      const q = knex('schedules').where({ team_id: teamId }).orderBy('id');
      if (scheduleIds) q.whereIn('id', [...scheduleIds]);
      if (groupIds) q.whereRaw('jsonb_exists_any(owner_group_ids, ?::text[])', [[...groupIds]]);
      if (recordIds) q.whereIn('id', recordIds.filter((id) => UUID.test(id)));
      return (await q.select('id')).map((r: { id: string }) => r.id);
    },
    allSchedules: () => knex('schedules').orderBy('id').select('id', 'team_id'),
    skipped: (r) => logger?.warn('shifts: a rotation whose time zone this runtime does not know is left out', { rotation_id: r.id, time_zone: r.time_zone }),
    // Reads outside a transaction: the users repository takes any query builder.
    users: (teamId, userIds) => users.summaries(knex as unknown as Transaction, teamId, userIds),
  };
}
