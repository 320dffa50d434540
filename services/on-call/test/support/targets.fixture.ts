import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTargetSyncStore } from '../../src/data/targets.repository.js';

/**
 * A service of `teamId` in on-call's targets read model, as its `service.created` would put
 * it (on-call learns services from events, it has no route to make one); its id.
 */
export async function seedService(knex: Knex, teamId = 1): Promise<string> {
  const id = randomUUID();
  await createTargetSyncStore(knex).apply({
    team_id: teamId,
    target_type: 'Service',
    target_id: id,
    name: `Service ${id.slice(0, 8)}`,
    changed_at: new Date(),
    deleted_at: null,
    member_ids: [],
    admin_ids: [],
  });
  return id;
}
