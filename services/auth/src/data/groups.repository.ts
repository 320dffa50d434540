import type { Knex } from 'knex';
import type { GroupMembersStore, GroupsBackfillStore, GroupsLookup } from '../domain/groups/groups.store.js';
import type { UserRow } from '../domain/users.store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Groups' membership and lookups, beside the kit's own repository of the `groups` table. */
export function createGroupsRepository(knex: Knex): GroupMembersStore & GroupsLookup & GroupsBackfillStore {
  return {
    async page(after, limit, teamId) {
      // Ids are unique per tenant only (migration 0023), so the page key is the id with the team.
      const q = knex('groups').orderBy(['id', 'team_id']).limit(limit);
      if (after !== null) q.whereRaw('(id, team_id) > (?::uuid, ?)', [after.id, after.team_id]);
      if (teamId !== undefined) q.where({ team_id: teamId });
      return q;
    },
    async usersOfTeam(tx, teamId, ids) {
      if (!ids.length) return new Set();
      const rows: { id: number }[] = await tx('users').select('id').where({ team_id: teamId }).whereIn('id', ids).forKeyShare();
      return new Set(rows.map((r) => r.id));
    },
    async usersByIds(teamId, ids, tx) {
      if (!ids.length) return [];
      return (tx ?? knex)<UserRow>('users').where({ team_id: teamId }).whereIn('id', ids).orderBy('id');
    },
    async groupIdsOfUsers(teamId, userIds) {
      if (!userIds.length) return [];
      // Admins are members, so the members' list names everyone.
      const rows: { id: string }[] = await knex('groups')
        .select('id')
        .where({ team_id: teamId })
        .whereRaw('EXISTS (SELECT 1 FROM jsonb_array_elements(user_ids) AS m(e) WHERE (m.e)::int = ANY(?::int[]))', [[...userIds]])
        .orderBy(['position', 'created_at', 'id']);
      return rows.map((r) => r.id);
    },
    async removeUser(tx, teamId, userId) {
      // jsonb's `-` drops strings only; members are numbers, so the list is rebuilt without them, in order.
      const without = (column: string) =>
        tx.raw(
          `(SELECT coalesce(jsonb_agg(e ORDER BY n), '[]') FROM jsonb_array_elements(??) WITH ORDINALITY AS m(e, n) WHERE e <> to_jsonb(?::int))`,
          [column, userId],
        );
      // Admins are members, so the members' index finds every group naming the user.
      return tx('groups')
        .where({ team_id: teamId })
        .andWhereRaw('user_ids @> ?::jsonb', [JSON.stringify([userId])])
        .update({ user_ids: without('user_ids'), admin_ids: without('admin_ids'), updated_at: tx.fn.now() })
        .returning('*');
    },
    async existingIds(tx: Knex.Transaction, teamId, ids) {
      const valid = ids.filter((id) => UUID.test(id));
      if (!valid.length) return new Set();
      const rows: { id: string }[] = await tx('groups').select('id').where({ team_id: teamId }).whereIn('id', valid).forKeyShare();
      return new Set(rows.map((r) => r.id));
    },
  };
}
