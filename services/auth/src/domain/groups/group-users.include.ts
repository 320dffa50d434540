import type { IncludeLoader } from '@firewatch/resource-kit';
import type { AuthResourceDeps } from '../auth.deps.js';
import { toUserResource } from '../identity.presenter.js';

/**
 * `include=users`: the groups' members as `/v1/users` answers them. Every credential of
 * the team may read users (docs/api-contract.md §3.7), so reading the groups is enough;
 * only the caller's team's users are loaded.
 */
export const groupUsersInclude: IncludeLoader<AuthResourceDeps> = async (rows, { principal, tx, deps }) => {
  const ids = [...new Set(rows.flatMap((row) => (Array.isArray(row.user_ids) ? row.user_ids.map(Number) : [])))];
  return (await deps.groupMembers.usersByIds(principal.team_id, ids, tx)).map(toUserResource);
};
