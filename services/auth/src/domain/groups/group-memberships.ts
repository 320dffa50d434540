import { serialize } from '@firewatch/resource-kit';
import type { EventOutbox } from '../event-outbox.js';
import type { Tx } from '../unit-of-work.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { GroupMembersStore, GroupsBackfillStore } from './groups.store.js';
import { groups } from './groups.resource.js';

export type GroupMemberships = ReturnType<typeof createGroupMemberships>;

/** Groups per transaction when `announce` re-sends them. */
const ANNOUNCE_BATCH = 500;

export interface GroupMembershipsDeps {
  store: GroupMembersStore & GroupsBackfillStore;
  uow: UnitOfWork;
  outbox: EventOutbox;
}

const groupEvent = (teamId: number, row: Record<string, unknown>) => ({
  type: 'group.updated',
  team_id: teamId,
  data: serialize(groups, row),
});

/** What a user's deletion changes in groups, and the backfill of the groups' readers (docs/decisions.md, Groups). */
export function createGroupMemberships({ store, uow, outbox }: GroupMembershipsDeps) {
  return {
    /**
     * Re-sends every group (of one team, or all) as `group.updated`, unchanged: the
     * backfill of read models made after the groups (on-call's, incident-config's), which
     * keep the newest by `updated_at` and so ignore what they hold. Returns how many.
     */
    async announce(teamId?: number): Promise<{ announced: number }> {
      let sent = 0;
      for (let after: { id: string; team_id: number } | null = null; ;) {
        const rows = await store.page(after, ANNOUNCE_BATCH, teamId);
        if (!rows.length) return { announced: sent };
        await uow.run((tx) =>
          outbox.writeAll(
            tx,
            rows.map((row) => groupEvent(Number(row.team_id), row)),
          ),
        );
        sent += rows.length;
        const last = rows[rows.length - 1];
        after = { id: String(last.id), team_id: Number(last.team_id) };
      }
    },

    /**
     * Takes the user out of every group of the team, as member and admin, in the
     * deletion's transaction; each group changed is announced as `group.updated`, as
     * the kit announces an update of it, so the read models of members follow.
     */
    async leaveAll(tx: Tx, teamId: number, userId: number): Promise<void> {
      const changed = await store.removeUser(tx, teamId, userId);
      await outbox.writeAll(
        tx,
        changed.map((row) => groupEvent(teamId, row)),
      );
    },
  };
}
