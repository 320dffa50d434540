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
      // One round trip: each group with its conditions in position order (this runs in every intake).
      const conditions = CONDITION_COLUMNS.map((c) => `'${c}', c.${c}`).join(', ');
      return (await tx('alert_groups as g')
        .where({ 'g.team_id': teamId })
        .select(
          'g.*',
          tx.raw(
            `coalesce((select json_agg(json_build_object(${conditions}) order by c.position)
                         from alert_group_conditions c where c.alert_group_id = g.id), '[]'::json) as conditions`,
          ),
        )) as Row[];
    },
    async lockGroup(tx, teamId, groupId, summary) {
      const name = `alert-group:${teamId}:${groupId}` + (summary === undefined ? '' : `:summary:${summary}`);
      // Two 32-bit halves of one hash, as the deduplication key's lock: a collision only makes two groups take turns.
      await tx.raw('select pg_advisory_xact_lock(hashtext(?), hashtext(reverse(?)))', [name, name]);
    },
    async openLeaders(tx, teamId, groupId, since, summary) {
      return (
        (await tx('alerts')
          .where({ team_id: teamId, alert_group_id: groupId, is_group_leader_alert: true })
          // The digest reaches alerts_open_group_leaders_by_summary; the summary itself decides.
          .modify((q) => (summary === undefined ? q : q.whereRaw('md5(summary) = md5(?)', [summary]).andWhere({ summary })))
          .whereNot('status', 'resolved')
          .andWhere('created_at', '>=', since)
          .orderBy([{ column: 'created_at' }, { column: 'id' }])
          .limit(100)) as Row[]
      );
    },
  };
}
