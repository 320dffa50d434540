import type { Tx } from './unit-of-work.js';
import type { GroupMembersStore } from './groups/groups.store.js';

/** The one dependencies object auth's resource declarations (groups) receive. */
export interface AuthResourceDeps {
  groupMembers: GroupMembersStore;
  /** API keys naming a group being deleted lose it, each announced as `api_key.updated` (docs/security.md, Group keys). */
  groupKeys: { dropGroup(tx: Tx, teamId: number, groupId: string): Promise<void> };
}
