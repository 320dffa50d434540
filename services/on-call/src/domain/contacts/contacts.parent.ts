import type { Principal } from '@firewatch/auth';
import type { LoadedParent } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';

// auth's user ids are PostgreSQL integers: anything else names no user.
const USER_ID = /^[1-9]\d{0,9}$/;
const MAX_INT = 2_147_483_647;

/**
 * Whether the caller may see and manage the user's contact methods and notification
 * rules: the user themselves (a personal key or an OAuth token acting as them), or an
 * on-call admin (docs/security.md, "Contact methods"). Contact data is personal: other
 * members of the team do not read it.
 */
export function managesContactsOf(principal: Principal, userId: number): boolean {
  return principal.on_call_role === 'admin' || principal.user_id === userId;
}

/**
 * `/v1/users/{user_id}/...`: the user from on-call's users read model, as the parent of
 * their contact methods and rules. An unknown or deleted user, another team's, or one
 * whose contacts the caller may not manage is a 404, as the reference answers for "other
 * user's resources"; so is every record under such a user. A create holds the user's row
 * (FOR SHARE) so that a deletion of the user arriving meanwhile removes what it adds.
 */
export const contactsOwner: LoadedParent<OnCallResourceDeps> = {
  param: 'user_id',
  column: 'user_id',
  noun: 'user',
  idFormat: 'integer id',
  async load({ tx, principal, deps, id, of }) {
    if (!USER_ID.test(id) || Number(id) > MAX_INT) return undefined;
    const userId = Number(id);
    if (!managesContactsOf(principal, userId)) return undefined;
    // A record under the user is already found (and locked when written): locking the user
    // after it would take locks in the order opposite to the user sync's.
    return deps.contacts.person(tx, principal.team_id, userId, tx !== undefined && of === 'collection');
  },
};
