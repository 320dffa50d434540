import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTargetSyncStore } from '../../src/data/targets.repository.js';

/**
 * Puts a team (auth's group) into on-call's targets read model, as its `group.created`
 * (or, `deleted`, its `group.deleted`) would, through the consumer's own store: tests of
 * owner groups need teams without a broker round trip. Its id.
 */
export async function seedTeam(
  knex: Knex,
  teamId = 1,
  options: { id?: string; deleted?: boolean; members?: number[]; admins?: number[] } = {},
): Promise<string> {
  const id = (options.id ?? randomUUID()).toLowerCase();
  const now = new Date();
  const store = createTargetSyncStore(knex);
  await store.apply({
    team_id: teamId,
    target_type: 'Group',
    target_id: id,
    name: `Team ${id.slice(0, 8)}`,
    changed_at: now,
    deleted_at: null,
    member_ids: options.members ?? [],
    admin_ids: options.admins ?? [],
  });
  if (options.deleted)
    await store.apply({
      team_id: teamId,
      target_type: 'Group',
      target_id: id,
      name: null,
      changed_at: now,
      deleted_at: new Date(),
      member_ids: [],
      admin_ids: [],
    });
  return id;
}
