import type { Knex } from 'knex';
import type { TargetSyncStore } from '../domain/targets/target-sync-store.js';
import type { TargetsDeps, TargetType } from '../domain/targets/targets.deps.js';

/**
 * on-call's own records that alert groups may target, each in a table of its own keyed
 * by `id` and `team_id`: their ids are found as the read model's are.
 */
const OWN_TARGETS: readonly { table: string; type: TargetType }[] = [{ table: 'escalation_policies', type: 'EscalationPolicy' }];

/** Reads of the known targets for on-call's declarations. */
export function createTargetsRepository(): TargetsDeps {
  return {
    async typesOf(tx, teamId, ids) {
      const out = new Map<string, TargetType[]>();
      const wanted = [...new Set(ids)];
      if (!wanted.length) return out;
      const add = (id: string, type: TargetType) => out.set(id, [...(out.get(id) ?? []), type]);
      const known: { target_id: string; target_type: TargetType }[] = await tx('targets')
        .where({ team_id: teamId })
        .whereIn('target_id', wanted)
        .whereNull('deleted_at')
        .select('target_id', 'target_type');
      for (const row of known) add(row.target_id, row.target_type);
      for (const own of OWN_TARGETS) {
        const rows: { id: string }[] = await tx(own.table).where({ team_id: teamId }).whereIn('id', wanted).select('id');
        for (const row of rows) add(row.id, own.type);
      }
      return out;
    },
  };
}

/** Writes of the known targets, for the `service.*`, `functionality.*` and `group.*` consumer. */
export function createTargetSyncStore(knex: Knex): TargetSyncStore {
  return {
    async apply(change) {
      // One statement decides under the row lock: a concurrent older event cannot slip in between a read and a write.
      const rows = await knex('targets')
        .insert({ ...change, updated_at: knex.fn.now() })
        .onConflict(['team_id', 'target_id', 'target_type'])
        .merge(['name', 'changed_at', 'deleted_at', 'member_ids', 'admin_ids', 'updated_at'])
        .whereRaw('targets.deleted_at is null and (excluded.deleted_at is not null or targets.changed_at <= excluded.changed_at)')
        .returning('target_id');
      return rows.length > 0;
    },
  };
}
