import type { Principal } from '@firewatch/auth';
import type { ResourceObject } from '@firewatch/jsonapi';
import type { GroupMembersStore } from './groups/groups.store.js';

/**
 * The reference's `include` values on users. `teams` adds the groups the users are members
 * of, as `/v1/teams` answers them. The others add nothing: contact methods, notification
 * rules and schedules are on-call's records, which auth does not read; roles are names
 * (`role`, `on_call_role`), not records; no devices are kept (docs/decisions.md, Users).
 */
export const USER_INCLUDES = [
  'email_addresses',
  'phone_numbers',
  'devices',
  'role',
  'on_call_role',
  'teams',
  'schedules',
  'notification_rules',
] as const;

export interface UserIncludesDeps {
  memberships: Pick<GroupMembersStore, 'groupIdsOfUsers'>;
  /** Groups as a read of `/v1/teams` answers this caller: its permission applies (403 without `ir.groups`). */
  groups: { visibleByIds(principal: Principal, ids: readonly string[]): Promise<ResourceObject[]> };
}

export type UserIncludes = (principal: Principal, userIds: readonly number[], include: readonly string[]) => Promise<ResourceObject[]>;

/** The `included` of a users answer. */
export function createUserIncludes({ memberships, groups }: UserIncludesDeps): UserIncludes {
  return async (principal, userIds, include) => {
    if (!include.includes('teams')) return [];
    return groups.visibleByIds(principal, await memberships.groupIdsOfUsers(principal.team_id, userIds));
  };
}
