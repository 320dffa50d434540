import type { Knex } from 'knex';
import type { Logger } from '@firewatch/logger';
import type { Transaction } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../domain/on-call-deps.js';
import { createUsersRepository } from './users.repository.js';
import { createSchedulingRepository } from './scheduling.repository.js';
import { createShiftInputsRepository } from './shift-inputs.repository.js';

/** The queries on-call's declarations need beyond the kit's own: id look-ups, users, scheduling (settings are app.ts's). */
export function createRecordsRepository(knex: Knex, logger?: Logger): Omit<OnCallResourceDeps, 'shiftReads'> {
  const users = createUsersRepository();
  return {
    users,
    shifts: createShiftInputsRepository(knex, users, logger),
    scheduling: createSchedulingRepository(),
    existing: {
      async ids(tx: Transaction, table: string, teamId: number, ids: readonly string[]) {
        if (!ids.length) return new Set<string>();
        // FOR SHARE: a delete of one of them (which locks it first) waits for this write to commit and then sees it in use.
        const rows: { id: string }[] = await tx(table).where({ team_id: teamId }).whereIn('id', [...ids]).select('id').forShare();
        return new Set(rows.map((r) => r.id));
      },
    },
    async urgencyUses(tx: Transaction, teamId: number, urgencyId: string) {
      const groups: { id: string; name: string }[] = await tx('alert_groups as g')
        .where('g.team_id', teamId)
        .whereExists((q) => q.select(tx.raw('1')).from('alert_group_conditions as c')
          .whereRaw('c.alert_group_id = g.id').whereRaw('c.alert_urgency_ids @> ?::jsonb', [JSON.stringify([urgencyId])]))
        .orderBy('g.name').select('g.id', 'g.name');
      const rules: { id: string; name: string }[] = await tx('alert_retrigger_rules as r')
        .where('r.team_id', teamId)
        .whereExists((q) => q.select(tx.raw('1')).from('alert_retrigger_rule_conditions as c')
          .whereRaw('c.alert_retrigger_rule_id = r.id').where('c.kind', 'urgency').whereRaw('c.record_ids @> ?::jsonb', [JSON.stringify([urgencyId])]))
        .orderBy('r.name').select('r.id', 'r.name');
      return { alert_groups: groups, alert_retrigger_rules: rules };
    },
  };
}
