import type { Knex } from 'knex';
import type { Logger } from '@firewatch/logger';
import type { Transaction } from '@firewatch/resource-kit';
import type { RotationRecord, RotationScope, ShiftsDeps } from '../domain/on-call.deps.js';
import type { UsersDeps } from '../domain/users/users.deps.js';
import type { TimeWindow } from '../domain/shifts/index.js';

type RotationRow = Omit<RotationRecord, 'member_slots' | 'active_day_rows'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Scope = { teamId?: number; scheduleIds?: readonly string[] };

// `= ANY(array)`: one bind however many ids (an IN list breaks past 65,535 binds).
function scoped<T extends Knex.QueryBuilder>(q: T, scope: Scope, alias: string): T {
  if (scope.teamId !== undefined) q.where(`${alias}.team_id`, scope.teamId);
  if (scope.scheduleIds) q.whereRaw(`${alias}.schedule_id = ANY(?::uuid[])`, [[...scope.scheduleIds]]);
  return q;
}

interface MemberSlot {
  schedule_rotation_id: string;
  user_id: number;
  left_at: Date | null;
}
interface ActiveDayRow {
  schedule_rotation_id: string;
  day_name: string;
  active_time_attributes: TimeWindow[];
}

/**
 * Members and the slots of members whose user was deleted (they keep their place), in
 * turn order. With `max`, the LIMIT sits inside the sort, so PostgreSQL stops at
 * `max` + 1 rows rather than read and sort every member of the team first.
 */
async function memberSlots(knex: Knex, ids: string[], max?: number): Promise<MemberSlot[]> {
  const union = `SELECT schedule_rotation_id, user_id, position, created_at, id, NULL::timestamptz AS left_at FROM schedule_rotation_users WHERE schedule_rotation_id = ANY(?::uuid[])
    UNION ALL
    SELECT schedule_rotation_id, user_id, position, member_created_at, id, left_at FROM schedule_rotation_vacancies WHERE schedule_rotation_id = ANY(?::uuid[])`;
  const order = 'ORDER BY position, created_at, id';
  return max === undefined
    ? (await knex.raw(`${union} ${order}`, [ids, ids])).rows
    : (await knex.raw(`SELECT * FROM (${union} LIMIT ?) AS slots ${order}`, [ids, ids, max + 1])).rows;
}

/** Rows by one of their columns, in one pass (order kept). */
function byKey<T, K extends keyof T>(rows: readonly T[], key: K): Map<T[K], T[]> {
  const out = new Map<T[K], T[]>();
  for (const row of rows) {
    const list = out.get(row[key]);
    if (list) list.push(row);
    else out.set(row[key], [row]);
  }
  return out;
}

/** A rotation row with what was read of its member slots and active days. */
function recordOf(r: RotationRow, slots?: Map<string, MemberSlot[]>, days?: Map<string, ActiveDayRow[]>): RotationRecord {
  return { ...r, member_slots: slots?.get(r.id) ?? [], active_day_rows: days?.get(r.id) ?? [] };
}

/**
 * The rotations of the schedules in `scope` with their member slots (in turn order) and
 * active days in one statement, for a read of few schedules (paging: the one a level
 * names, at most 20 rotations and 2,000 members), where the three reads of `rotations`
 * were most of its cost. Past `bounds.rotations` it stops as `rotations` does; member
 * slots are all read (readRotations refuses too many either way).
 */
export async function rotationsInOneRead(knex: Knex, scope: Omit<RotationScope, 'live'>): Promise<RotationRecord[]> {
  const q = scoped(
    knex('schedule_rotations as r').select(
      'r.*',
      knex.raw(`(SELECT coalesce(json_agg(json_build_object('user_id', s.user_id, 'left_at', s.left_at) ORDER BY s.position, s.created_at, s.id), '[]')
                   FROM (SELECT user_id, position, created_at, id, NULL::timestamptz AS left_at FROM schedule_rotation_users WHERE schedule_rotation_id = r.id
                         UNION ALL
                         SELECT user_id, position, member_created_at, id, left_at FROM schedule_rotation_vacancies WHERE schedule_rotation_id = r.id) s) AS member_slots`),
      knex.raw(`(SELECT coalesce(json_agg(json_build_object('day_name', d.day_name, 'active_time_attributes', d.active_time_attributes)), '[]')
                   FROM schedule_rotation_active_days d WHERE d.schedule_rotation_id = r.id) AS active_day_rows`),
    ),
    scope,
    'r',
  );
  if (scope.bounds) q.limit(scope.bounds.rotations + 1);
  const rows: (RotationRow & {
    member_slots: { user_id: number; left_at: string | null }[];
    active_day_rows: RotationRecord['active_day_rows'];
  })[] = await q;
  return rows.map((r) => ({
    ...r,
    member_slots: r.member_slots.map((m) => ({ user_id: m.user_id, left_at: m.left_at === null ? null : new Date(m.left_at) })),
  }));
}

/**
 * Reads schedules' rotations, members, active days and overrides (sched-a's tables), the
 * shift engine's input. Active days are at most seven a rotation (a unique index), so
 * bounding the rotations bounds them.
 */
export function createShiftInputsRepository(knex: Knex, users: UsersDeps, logger?: Logger): ShiftsDeps {
  return {
    async rotations(scope) {
      const q = scoped(knex('schedule_rotations as r').select('r.*'), scope, 'r');
      // The scheduler's look: only rotations that have started and not ended before it.
      if (scope.live) {
        q.where((w) => w.whereNull('r.end_time').orWhere('r.end_time', '>', new Date(scope.live!.from))).whereRaw(
          'coalesce(r.start_time, r.created_at) < ?',
          [new Date(scope.live.to)],
        );
      }
      const { bounds } = scope;
      if (bounds) q.limit(bounds.rotations + 1);
      const rows: RotationRow[] = await q;
      // Past a bound it reads no further; the domain refuses what it found (readRotations).
      if (!rows.length || (bounds && rows.length > bounds.rotations)) return rows.map((r) => recordOf(r));
      const ids = rows.map((r) => r.id);
      const slots = await memberSlots(knex, ids, bounds?.memberSlots);
      const members = byKey(slots, 'schedule_rotation_id');
      if (bounds && slots.length > bounds.memberSlots) return rows.map((r) => recordOf(r, members));
      const days = byKey<ActiveDayRow, 'schedule_rotation_id'>(
        await knex('schedule_rotation_active_days')
          .whereRaw('schedule_rotation_id = ANY(?::uuid[])', [ids])
          .select('schedule_rotation_id', 'day_name', 'active_time_attributes'),
        'schedule_rotation_id',
      );
      return rows.map((r) => recordOf(r, members, days));
    },
    async overrides(scope, from, to, limit) {
      const q = scoped(knex('override_shifts as o'), scope, 'o')
        .where('o.ends_at', '>', new Date(from))
        .where('o.starts_at', '<', new Date(to))
        .select('o.id', 'o.schedule_id', 'o.user_id', 'o.starts_at', 'o.ends_at', 'o.created_at');
      if (limit !== undefined && Number.isFinite(limit)) q.limit(Math.max(0, Math.floor(limit)));
      const rows: { id: string; schedule_id: string; user_id: number; starts_at: Date; ends_at: Date; created_at: Date }[] = await q;
      return rows.map((o) => ({
        id: o.id,
        schedule_id: o.schedule_id,
        user_id: o.user_id,
        starts_at: o.starts_at.getTime(),
        ends_at: o.ends_at.getTime(),
        created_at: o.created_at.getTime(),
      }));
    },
    async scheduleIds({ teamId, scheduleIds, groupIds, recordIds }) {
      const q = knex('schedules').where({ team_id: teamId }).orderBy('id');
      if (scheduleIds) q.whereIn('id', [...scheduleIds]);
      if (groupIds) q.whereRaw('jsonb_exists_any(owner_group_ids, ?::text[])', [[...groupIds]]);
      if (recordIds)
        q.whereIn(
          'id',
          recordIds.filter((id) => UUID.test(id)),
        );
      return (await q.select('id')).map((r: { id: string }) => r.id);
    },
    schedulesAfter: (afterId, limit) => {
      const q = knex('schedules').orderBy('id').limit(limit).select('id', 'team_id');
      return afterId === null ? q : q.where('id', '>', afterId);
    },
    // The reference requires created_by_user_id: a key acting for no user (and an override
    // older than migration 0092) gives the schedule's owner instead.
    overrideRecords: (teamId, ids) =>
      knex('override_shifts as o')
        .join('schedules as s', 's.id', 'o.schedule_id')
        .where('o.team_id', teamId)
        .whereRaw('o.id = ANY(?::uuid[])', [[...ids]])
        .select('o.id', knex.raw('coalesce(o.created_by_user_id, s.owner_user_id) AS created_by_user_id'), 'o.created_at', 'o.updated_at'),
    skipped: (r) =>
      logger?.warn('shifts: a rotation whose time zone this runtime does not know is left out', {
        rotation_id: r.id,
        time_zone: r.time_zone,
      }),
    // Reads outside a transaction: the users repository takes any query builder.
    users: (teamId, userIds) => users.summaries(knex as unknown as Transaction, teamId, userIds),
  };
}
