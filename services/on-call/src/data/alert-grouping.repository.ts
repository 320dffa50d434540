import type { Row } from '@firewatch/resource-kit';
import type { GroupingStore } from '../domain/alerts-in/alert-grouping.js';

const CONDITION_COLUMNS = [
  'id',
  'property_field_type',
  'property_field_name',
  'property_field_condition_type',
  'property_field_value',
  'property_field_values',
  'alert_urgency_ids',
  'conditionable_type',
  'conditionable_id',
];

/** Alert groups and their leaders as the intake's grouping reads them. */
export function createGroupingStore(): GroupingStore {
  return {
    async groups(tx, teamId) {
      const groups = (await tx('alert_groups').where({ team_id: teamId })) as Row[];
      if (!groups.length) return [];
      const conditions = (await tx('alert_group_conditions')
        .whereIn(
          'alert_group_id',
          groups.map((g) => g.id as string),
        )
        .orderBy([{ column: 'alert_group_id' }, { column: 'position' }])
        .select('alert_group_id', ...CONDITION_COLUMNS)) as Row[];
      return groups.map((g) => ({
        ...g,
        conditions: conditions.filter((c) => c.alert_group_id === g.id).map(({ alert_group_id: _, ...c }) => c),
      }));
    },
    async lockGroup(tx, teamId, groupId, summary) {
      const name = `alert-group:${teamId}:${groupId}` + (summary === undefined ? '' : `:summary:${summary}`);
      // Two 32-bit halves of one hash, as the deduplication key's lock: a collision only makes two groups take turns.
      await tx.raw('select pg_advisory_xact_lock(hashtext(?), hashtext(reverse(?)))', [name, name]);
    },
    async openLeaders(tx, teamId, groupId, since, summary) {
      return (await tx('alerts')
        .where({ team_id: teamId, alert_group_id: groupId, is_group_leader_alert: true, ...(summary === undefined ? {} : { summary }) })
        .whereNot('status', 'resolved')
        .andWhere('created_at', '>=', since)
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .limit(100)) as Row[];
    },
  };
}
