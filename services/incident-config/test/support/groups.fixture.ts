import type { Knex } from 'knex';
import { legacyGroupId } from '@firewatch/auth';

/** A team (group) id for tests, named as the free-text group it stands for (team 1's spelling). */
export const groupId = (name: string) => legacyGroupId(1, name);

/** Team ids the owner-group tests use. */
export const OPS = groupId('ops');
export const DB = groupId('db');

/**
 * Makes `ids` teams of `teamId` in the groups read model, as auth's `group.created`
 * events would (services/incident-config/src/queue/group-events.consumer.ts).
 */
export async function seedGroups(knex: Knex, teamId: number, ids: readonly string[]): Promise<void> {
  const now = new Date();
  await knex('groups')
    .insert(ids.map((id) => ({ team_id: teamId, id, name: `Team ${id.slice(0, 8)}`, updated_at: now, occurred_at: now })))
    .onConflict(['team_id', 'id'])
    .ignore();
}
