import type { Capability, Principal } from '@firewatch/auth';
import { ForbiddenError } from '@firewatch/errors';
import type { Transaction, Visibility } from '@firewatch/resource-kit';

/** A column of the `dashboard_access` views: one per permission a grant can give. */
export type DashboardRight = 'can_read' | 'can_update' | 'can_destroy' | 'can_authorize';

/** Someone a dashboard can be owned by or granted to, as the views spell them. */
export interface Subject {
  subject_type: 'User' | 'Team' | 'Public';
  subject_id: string;
}

/**
 * The subjects a principal acts as: its team, its user when it has one (an OAuth token,
 * a personal key), and anyone (public dashboards). A team-wide key has no user, so it
 * holds only what the team holds.
 */
export function subjectsOf(principal: Principal): Subject[] {
  const subjects: Subject[] = [
    { subject_type: 'Team', subject_id: String(principal.team_id) },
    { subject_type: 'Public', subject_id: '*' },
  ];
  if (principal.user_id !== null) subjects.push({ subject_type: 'User', subject_id: String(principal.user_id) });
  return subjects;
}

/** Team admins see and may do everything to every dashboard of their team (docs/decisions.md). */
export const seesAllDashboards = (principal: Principal): boolean => principal.role === 'admin';

/**
 * A visibility rule over a view of the migration `…-authorizations` (`dashboard_access`,
 * `authorization_access`), whose `key` column holds the id of
 * the record it grants access to: a row is visible for an action when one of the
 * principal's subjects holds the right `rights` maps that action to.
 */
export function dashboardVisibility(view: string, key: string, rights: Record<Capability, DashboardRight>): Visibility {
  return (principal, action) => {
    if (seesAllDashboards(principal)) return null;
    return subjectsOf(principal).map((subject) => ({
      granted: { table: view, key, where: { team_id: principal.team_id, ...subject, [rights[action]]: true } },
    }));
  };
}

/** Reads of dashboard access that hooks need, inside their transaction; the data layer implements it. */
export interface DashboardAccessLookup {
  /** The rights these subjects hold on the team's dashboard; null when the team has no such dashboard. */
  rightsOn(tx: Transaction, teamId: number, dashboardId: string, subjects: readonly Subject[]): Promise<Set<DashboardRight> | null>;
}

/** What a declaration checking dashboard access needs in its `deps`. */
export interface DashboardAccessDeps {
  dashboardAccess: DashboardAccessLookup;
}

const ALL_RIGHTS: DashboardRight[] = ['can_read', 'can_update', 'can_destroy', 'can_authorize'];

/** The principal's rights on a dashboard of its team; null when it does not exist or cannot be seen. */
export async function dashboardRights(
  deps: DashboardAccessDeps,
  tx: Transaction,
  principal: Principal,
  dashboardId: string,
): Promise<Set<DashboardRight> | null> {
  const rights = await deps.dashboardAccess.rightsOn(tx, principal.team_id, dashboardId, subjectsOf(principal));
  if (rights === null) return null;
  if (seesAllDashboards(principal)) return new Set(ALL_RIGHTS);
  return rights.has('can_read') ? rights : null;
}

/** A 403 for a visible dashboard the caller may not change in this way, as the kit answers one. */
export function notGranted(what: string): ForbiddenError {
  return new ForbiddenError(`You may see this dashboard but not ${what}.`, { code: 'not_granted' });
}
