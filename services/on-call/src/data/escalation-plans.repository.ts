import type { Knex } from 'knex';
import type { EscalationPlansStore, PolicyPlanRecord, StoredLevel } from '../domain/escalation-plans/escalation-plans.store.js';

/** The most levels a policy's read brings along with its paths (a policy may hold 20 paths of 20 levels of 50 targets). */
const POLICY_LEVELS_READ_WHOLE = 50;

const POLICY_COLUMNS = ['id', 'name', 'repeat_count', 'group_ids', 'service_ids', 'business_hours'];
export const PATH_COLUMNS = [
  'id',
  'name',
  'is_default',
  'path_type',
  'position',
  'match_mode',
  'rules',
  'time_restriction_time_zone',
  'time_restrictions',
  'notification_type',
  'repeat',
  'repeat_count',
  'initial_delay',
];
export const LEVEL_COLUMNS = [
  'id',
  'escalation_policy_path_id',
  'position',
  'delay',
  'paging_strategy_configuration_strategy',
  'paging_strategy_configuration_schedule_strategy',
  'notification_target_params',
];

/** Each schedule's members of its rotations not ended by `at`, in rotation and turn order, each once. */
export async function membersOfSchedules(db: Knex, teamId: number, ids: readonly string[], at: Date): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (!ids.length) return out;
  const rows: { schedule_id: string; user_id: number }[] = await db('schedule_rotation_users as m')
    .join('schedule_rotations as r', 'r.id', 'm.schedule_rotation_id')
    .where({ 'r.team_id': teamId })
    .whereIn('r.schedule_id', ids)
    .andWhere((q) => q.whereNull('r.end_time').orWhere('r.end_time', '>', at))
    .orderBy([{ column: 'r.position' }, { column: 'r.id' }, { column: 'm.position' }, { column: 'm.id' }])
    .select('r.schedule_id', 'm.user_id');
  for (const r of rows) {
    const list = out.get(r.schedule_id) ?? [];
    if (!list.includes(r.user_id)) list.push(r.user_id);
    out.set(r.schedule_id, list);
  }
  return out;
}

/** The reads (and the cycle counter) of escalation plans (domain/escalation-plans/escalation-plans.store.ts), each within the caller's transaction. */
export function createEscalationPlansRepository(): EscalationPlansStore {
  return {
    async policyPlan(tx, teamId, id) {
      // One round trip for what paging a policy reads (its policy, paths and levels were three).
      const { rows } = await tx.raw<{ rows: (PolicyPlanRecord['policy'] & Pick<PolicyPlanRecord, 'paths' | 'levels'>)[] }>(
        `SELECT ${POLICY_COLUMNS.map((c) => `p.${c}`).join(', ')},
           (SELECT coalesce(json_agg(x ORDER BY x.position, x.id), '[]')
              FROM (SELECT ${PATH_COLUMNS.map((c) => `"${c}"`).join(', ')} FROM escalation_paths
                     WHERE team_id = p.team_id AND escalation_policy_id = p.id) x) AS paths,
           (SELECT CASE WHEN count(*) <= ? THEN coalesce(json_agg(x ORDER BY x.escalation_policy_path_id, x.position, x.id), '[]') END
              FROM (SELECT ${LEVEL_COLUMNS.join(', ')} FROM escalation_levels
                     WHERE team_id = p.team_id AND escalation_policy_id = p.id) x) AS levels
         FROM escalation_policies p WHERE p.team_id = ? AND p.id = ?`,
        [POLICY_LEVELS_READ_WHOLE, teamId, id],
      );
      const row = rows[0];
      if (!row) return null;
      const { paths, levels, ...policy } = row;
      return { policy, paths, levels };
    },
    async policyNaming(tx, teamId, column, id) {
      const row: { id: string; name: string } | undefined = await tx('escalation_policies')
        .where({ team_id: teamId })
        .whereRaw('?? @> array[?]::uuid[]', [column, id])
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .first('id', 'name');
      return row ?? null;
    },
    async levels(tx, teamId, pathIds) {
      if (!pathIds.length) return [];
      const rows: StoredLevel[] = await tx('escalation_levels')
        .where({ team_id: teamId })
        .whereIn('escalation_policy_path_id', pathIds)
        .orderBy([{ column: 'escalation_policy_path_id' }, { column: 'position' }, { column: 'id' }])
        .select(LEVEL_COLUMNS);
      return rows;
    },
    async users(tx, teamId, ids) {
      if (!ids.length) return new Map();
      const rows: { user_id: number; name: string; deleted_at: Date | null }[] = await tx('users')
        .where({ team_id: teamId })
        .whereIn('user_id', ids)
        .select('user_id', 'name', 'deleted_at');
      return new Map(rows.map((r) => [r.user_id, { name: r.name, deleted: r.deleted_at !== null }]));
    },
    async team(tx, teamId, id) {
      const row: { name: string | null; member_ids: number[]; admin_ids: number[] } | undefined = await tx('targets')
        .where({ team_id: teamId, target_type: 'Group', target_id: id })
        .whereNull('deleted_at')
        .first('name', 'member_ids', 'admin_ids');
      return row ?? null;
    },
    async schedule(tx, teamId, id) {
      const row: { id: string; name: string } | undefined = await tx('schedules').where({ team_id: teamId, id }).first('id', 'name');
      return row ?? null;
    },
    async scheduleMembers(tx, teamId, scheduleId, at) {
      return (await membersOfSchedules(tx, teamId, [scheduleId], at)).get(scheduleId) ?? [];
    },
    async nextTurn(tx, teamId, levelId) {
      // One statement under the row lock: concurrent pages of the level take consecutive turns.
      // A paging pages from its stored plan, so the level may have been deleted since: it
      // has no counter then (turn 0), rather than a foreign key error failing the page.
      const { rows } = await tx.raw<{ rows: { turn: string }[] }>(
        `INSERT INTO escalation_level_turns (escalation_level_id, team_id, turn)
           SELECT id, team_id, 0 FROM escalation_levels WHERE id = ? AND team_id = ?
         ON CONFLICT (escalation_level_id)
           DO UPDATE SET turn = escalation_level_turns.turn + 1, updated_at = now()
         RETURNING turn`,
        [levelId, teamId],
      );
      return rows.length ? Number(rows[0]!.turn) : 0;
    },
  };
}
