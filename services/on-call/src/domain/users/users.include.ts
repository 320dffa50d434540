import type { ResourceObject } from '@firewatch/jsonapi';
import type { IncludeLoader, Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';

/**
 * `include=user` (or `owner_user`) for records naming auth users by `column`: each as a
 * `users` resource from the users read model, a user deleted since marked `deleted`
 * (the records keep naming it), as GET /v1/shifts shows them. Ids the read model never
 * saw are left out.
 */
export function usersInclude(column: string): IncludeLoader<OnCallResourceDeps> {
  return async (rows: Row[], { principal, deps }): Promise<ResourceObject[]> => {
    const ids = [...new Set(rows.map((r) => r[column]).filter((v): v is number => typeof v === 'number'))];
    if (!ids.length) return [];
    const found = await deps.shifts.users(principal.team_id, ids);
    return [...found.values()].map((u) => ({
      id: String(u.id),
      type: 'users',
      attributes: { email: u.email, full_name: u.name, name: u.name, deleted: u.deleted },
    }));
  };
}
