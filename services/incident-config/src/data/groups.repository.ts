import type { Knex } from 'knex';
import type { Transaction } from '@firewatch/resource-kit';
import type { GroupChange } from '../domain/groups/group-event.js';
import type { GroupDirectory } from '../domain/groups/group-references.js';
import type { GroupSyncStore } from '../domain/groups/group-sync.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads of the groups read model for the declarations' checks. */
export function createGroupDirectory(): GroupDirectory {
  return {
    async known(tx: Transaction, teamId, ids) {
      // Anything but a UUID names no team, and PostgreSQL would refuse to compare it.
      const wanted = [...new Set(ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
      if (!wanted.length) return new Set<string>();
      const rows: { id: string }[] = await tx('groups')
        .where({ team_id: teamId })
        .whereIn('id', wanted)
        .whereNull('deleted_at')
        .select('id');
      return new Set(rows.map((r) => r.id));
    },
  };
}

/** Writes of the groups read model, for the `group.*` consumer. */
export function createGroupSyncStore(knex: Knex): GroupSyncStore {
  return {
    async apply(change: GroupChange) {
      // One statement decides under the row lock. A tombstone stays; a deletion lands on any
      // live row; anything else only when newer than what is stored.
      const result = await knex.raw(
        `INSERT INTO "groups" (team_id, id, name, slug, updated_at, occurred_at, deleted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (team_id, id) DO UPDATE SET
           name = excluded.name, slug = excluded.slug, updated_at = excluded.updated_at,
           occurred_at = excluded.occurred_at, deleted_at = excluded.deleted_at
         WHERE "groups".deleted_at IS NULL
           AND (excluded.deleted_at IS NOT NULL
             OR (excluded.updated_at, excluded.occurred_at) > ("groups".updated_at, "groups".occurred_at))
         RETURNING id`,
        [change.team_id, change.id, change.name, change.slug, change.updated_at, change.occurred_at, change.deleted_at],
      );
      return (result.rows as unknown[]).length > 0;
    },
  };
}
