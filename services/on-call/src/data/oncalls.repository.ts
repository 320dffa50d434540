import type { Knex } from 'knex';
import type { StoredLevel, StoredPath } from '../domain/escalation-plans/escalation-plans.store.js';
import type { OncallsDeps } from '../domain/escalation-plans/oncalls.deps.js';
import { LEVEL_COLUMNS, membersOfSchedules, PATH_COLUMNS } from './escalation-plans.repository.js';

/** The reads of GET /v1/oncalls (domain/escalation-plans/oncalls.deps.ts). */
export function createOncallsRepository(knex: Knex): OncallsDeps {
  return {
    async policies(teamId, filter, limit) {
      const query = knex('escalation_policies').where({ team_id: teamId });
      if (filter.policyIds) query.whereIn('id', filter.policyIds);
      // A policy matches when it names one of the services (or teams) asked for.
      if (filter.serviceIds) query.whereRaw('service_ids && ?::uuid[]', [[...filter.serviceIds]]);
      if (filter.groupIds) query.whereRaw('group_ids && ?::uuid[]', [[...filter.groupIds]]);
      const policies: { id: string; name: string }[] = await query.orderBy([{ column: 'name' }, { column: 'id' }]).select('id', 'name');
      if (!policies.length) return { policies: [], paths: 0, levels: 0 };
      const pathQuery = knex('escalation_paths')
        .where({ team_id: teamId })
        .whereIn(
          'escalation_policy_id',
          policies.map((p) => p.id),
        )
        .whereNot({ path_type: 'deferral' });
      if (filter.notificationTypes) pathQuery.whereIn('notification_type', filter.notificationTypes);
      const paths: (StoredPath & { escalation_policy_id: string })[] = await pathQuery
        .orderBy([{ column: 'position' }, { column: 'id' }])
        .limit(limit + 1)
        .select([...PATH_COLUMNS, 'escalation_policy_id']);
      const levels: StoredLevel[] = paths.length
        ? await knex('escalation_levels')
            .where({ team_id: teamId })
            .whereIn(
              'escalation_policy_path_id',
              paths.map((p) => p.id),
            )
            .orderBy([{ column: 'position' }, { column: 'id' }])
            .limit(limit + 1)
            .select(LEVEL_COLUMNS)
        : [];
      return {
        policies: policies.map((policy) => ({
          ...policy,
          paths: paths
            .filter((p) => p.escalation_policy_id === policy.id)
            .map((p) => ({ ...p, levels: levels.filter((l) => l.escalation_policy_path_id === p.id) })),
        })),
        paths: paths.length,
        levels: levels.length,
      };
    },
    async teams(teamId, ids) {
      if (!ids.length) return new Map();
      const rows: { target_id: string; member_ids: number[]; admin_ids: number[] }[] = await knex('targets')
        .where({ team_id: teamId, target_type: 'Group' })
        .whereIn('target_id', ids)
        .whereNull('deleted_at')
        .select('target_id', 'member_ids', 'admin_ids');
      return new Map(rows.map((r) => [r.target_id, { member_ids: r.member_ids, admin_ids: r.admin_ids }]));
    },
    async scheduleNames(teamId, ids) {
      if (!ids.length) return new Map();
      const rows: { id: string; name: string }[] = await knex('schedules')
        .where({ team_id: teamId })
        .whereIn('id', ids)
        .select('id', 'name');
      return new Map(rows.map((r) => [r.id, r.name]));
    },
    scheduleMembers: (teamId, ids, at) => membersOfSchedules(knex, teamId, ids, at),
    async liveUsers(teamId, ids) {
      if (!ids.length) return new Set();
      const rows: { user_id: number }[] = await knex('users')
        .where({ team_id: teamId })
        .whereIn('user_id', ids)
        .whereNull('deleted_at')
        .select('user_id');
      return new Set(rows.map((r) => r.user_id));
    },
  };
}
