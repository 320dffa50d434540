import type { Knex } from 'knex';
import type { EscalationDeps } from '../domain/escalation/escalation.deps.js';
import type { LevelTarget } from '../domain/paging/paging.ports.js';

/** The advisory lock key space of a team's escalation graph (the second key is the team id). */
const GRAPH_LOCK = 24_0001;

/** The queries of the escalation declarations (escalation.deps.ts). */
export function createEscalationRepository(knex: Knex): EscalationDeps {
  const holdPolicy: EscalationDeps['holdPolicy'] = async (tx, teamId, policyId) =>
    Boolean(await tx('escalation_policies').where({ team_id: teamId, id: policyId }).forKeyShare().first('id'));
  return {
    async graph(tx, teamId) {
      await tx.raw('SELECT pg_advisory_xact_lock(?, ?)', [GRAPH_LOCK, teamId]);
      const policies: { id: string; group_ids: string[]; service_ids: string[] }[] = await tx('escalation_policies')
        .where({ team_id: teamId })
        .select('id', 'group_ids', 'service_ids');
      // Only escalating team targets and service targets make edges: the rest of the levels is not read.
      const levels: { id: string; escalation_policy_id: string; notification_target_params: LevelTarget[] }[] = await tx(
        'escalation_levels',
      )
        .where({ team_id: teamId })
        .where((q) =>
          q
            .whereRaw(`notification_target_params @> '[{"type": "team", "team_members": "escalate"}]'::jsonb`)
            .orWhereRaw(`notification_target_params @> '[{"type": "service"}]'::jsonb`),
        )
        .select('id', 'escalation_policy_id', 'notification_target_params');
      return { policies, levels };
    },
    holdPolicy,
    async holdPath(tx, teamId, policyId, pathId) {
      // The policy first, as its delete locks it before its paths.
      if (!(await holdPolicy(tx, teamId, policyId))) return undefined;
      const q = tx('escalation_paths').where({ team_id: teamId, escalation_policy_id: policyId });
      const row: { id: string } | undefined = await (pathId === null ? q.where({ is_default: true }) : q.where({ id: pathId }))
        .forShare()
        .first('id');
      return row?.id;
    },
    async levelsOn(tx, teamId, policyId, pathId) {
      const path = await tx('escalation_paths')
        .where({ team_id: teamId, escalation_policy_id: policyId, id: pathId })
        .forNoKeyUpdate()
        .first('id');
      if (!path) return undefined;
      const [{ n }] = (await tx('escalation_levels').where({ team_id: teamId, escalation_policy_path_id: pathId }).count({ n: '*' })) as {
        n: string | number;
      }[];
      return Number(n);
    },
    async pathsOf(tx, teamId, policyId, ids) {
      const wanted = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
      if (!wanted.length) return new Set();
      // FOR SHARE: a path named by a write in progress cannot be deleted under it (its delete waits, then sees the reference).
      const rows: { id: string }[] = await tx('escalation_paths')
        .where({ team_id: teamId, escalation_policy_id: policyId })
        .whereIn('id', wanted)
        .forShare()
        .select('id');
      return new Set(rows.map((r) => r.id));
    },
    async deferralsTo(tx, teamId, policyId, pathId) {
      return tx('escalation_paths')
        .where({ team_id: teamId, escalation_policy_id: policyId, after_deferral_path_id: pathId })
        .orderBy('position')
        .pluck('id');
    },
    async unsetDefault(tx, teamId, policyId, exceptId) {
      const q = tx('escalation_paths').where({ team_id: teamId, escalation_policy_id: policyId, is_default: true });
      if (exceptId) q.whereNot('id', exceptId);
      return q.update({ is_default: false, updated_at: tx.fn.now() }).returning('*');
    },
    async levelIds(tx, column, owners) {
      const out = new Map<string, string[]>(owners.map((o) => [o.id, []]));
      if (!owners.length) return out;
      const rows: Record<string, string>[] = await (tx ?? knex)('escalation_levels')
        .whereIn(
          ['team_id', column],
          owners.map((o) => [o.team_id, o.id]),
        )
        .orderBy([{ column: 'position' }, { column: 'created_at' }, { column: 'id' }])
        .select('id', column);
      for (const row of rows) out.get(row[column] as string)?.push(row.id as string);
      return out;
    },
  };
}
