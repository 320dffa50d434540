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

const GROUPS_SQL = `
  select g.*,
         coalesce((select json_agg(json_build_object(${CONDITION_COLUMNS.map((c) => `'${c}', c.${c}`).join(', ')}) order by c.position)
                     from alert_group_conditions c where c.alert_group_id = g.id), '[]'::json) as conditions
    from alert_groups g where g.team_id = ?`;

const lockName = (teamId: number, groupId: string, summary: string | undefined) =>
  `alert-group:${teamId}:${groupId}` + (summary === undefined ? '' : `:summary:${summary}`);

/** Alert groups and their leaders as the intake's grouping reads them. */
export function createGroupingStore(): GroupingStore {
  return {
    async groups(tx, teamId) {
      // One round trip: each group with its conditions in position order (this runs in every intake; raw, unbuilt).
      return ((await tx.raw(GROUPS_SQL, [teamId])) as { rows: Row[] }).rows;
    },
    async lockGroup(tx, teamId, groupId, summary) {
      const name = lockName(teamId, groupId, summary);
      // Two 32-bit halves of one hash, as the deduplication key's lock: a collision only makes two groups take turns.
      await tx.raw('select pg_advisory_xact_lock(hashtext(?), hashtext(reverse(?)))', [name, name]);
    },
    async lockGroups(tx, teamId, groups) {
      // A function scan yields the array's elements in order, each locked as it comes.
      await tx.raw('select pg_advisory_xact_lock(hashtext(k), hashtext(reverse(k))) from unnest(?::text[]) as k', [
        groups.map((g) => lockName(teamId, g.groupId, g.summary)),
      ]);
    },
    async openLeaders(tx, teamId, groupId, since, summary, lock) {
      // With the lock: the lock, then the read, in one round trip (migration 20261230-0100 says why a function).
      if (lock)
        return (
          (await tx.raw('select * from firewatch_lock_group_leaders(?, ?, ?, ?, ?)', [
            lockName(teamId, groupId, summary),
            teamId,
            groupId,
            since,
            summary ?? null,
          ])) as { rows: Row[] }
        ).rows;
      // The digest reaches alerts_open_group_leaders_by_summary; the summary itself decides. Raw: every new alert runs it.
      const bySummary = summary === undefined ? '' : 'and md5(summary) = md5(?) and summary = ?';
      const { rows } = (await tx.raw(
        `select * from alerts
          where team_id = ? and alert_group_id = ? and is_group_leader_alert ${bySummary} and status <> 'resolved' and created_at >= ?
          order by created_at, id limit 100`,
        [teamId, groupId, ...(summary === undefined ? [] : [summary, summary]), since],
      )) as { rows: Row[] };
      return rows;
    },
  };
}
