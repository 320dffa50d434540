import { serialize } from '@firewatch/resource-kit';
import type { EventOutbox } from '../event-outbox.js';
import type { Tx } from '../unit-of-work.js';
import type { GroupMembersStore } from './groups.store.js';
import { groups } from './groups.resource.js';

export type GroupMemberships = ReturnType<typeof createGroupMemberships>;

/** What a user's deletion changes in groups (docs/decisions.md, Groups). */
export function createGroupMemberships({ store, outbox }: { store: GroupMembersStore; outbox: EventOutbox }) {
  return {
    /**
     * Takes the user out of every group of the team, as member and admin, in the
     * deletion's transaction; each group changed is announced as `group.updated`, as
     * the kit announces an update of it, so the read models of members follow.
     */
    async leaveAll(tx: Tx, teamId: number, userId: number): Promise<void> {
      const changed = await store.removeUser(tx, teamId, userId);
      await outbox.writeAll(
        tx,
        changed.map((row) => ({ type: 'group.updated', team_id: teamId, data: serialize(groups, row) })),
      );
    },
  };
}
