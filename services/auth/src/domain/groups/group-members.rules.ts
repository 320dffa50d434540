import { ForbiddenError, type ValidationIssue } from '@firewatch/errors';
import type { Principal } from '@firewatch/auth';
import type { HookContext, Row } from '@firewatch/resource-kit';
import type { AuthResourceDeps } from '../auth.deps.js';

const MEMBER_LISTS = ['user_ids', 'admin_ids'] as const;

const idsOf = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : []);

/**
 * The `validate` hook: every user a write newly lists, as a member or an admin, is a
 * user of the tenant; another tenant's user reads as absent, so it never leaks.
 */
export async function memberIssues(attributes: Row, ctx: HookContext<AuthResourceDeps>): Promise<ValidationIssue[]> {
  const listed = new Set(MEMBER_LISTS.flatMap((list) => idsOf(ctx.existing?.[list])));
  const named = [...new Set(MEMBER_LISTS.flatMap((list) => idsOf(attributes[list])))].filter((id) => !listed.has(id));
  if (!named.length) return [];
  const found = await ctx.deps.groupMembers.usersOfTeam(ctx.tx, ctx.principal.team_id, named);
  return MEMBER_LISTS.flatMap((list) =>
    idsOf(attributes[list]).flatMap((id, index) =>
      listed.has(id) || found.has(id)
        ? []
        : [{ pointer: `/data/attributes/${list}/${index}`, code: 'not_found', detail: `No user ${id} in your team.` }],
    ),
  );
}

/**
 * Admins are members (docs/decisions.md, Groups): admins sent are added to the members;
 * members sent without admins keep only the admins still among them.
 */
export function settleMembers(attributes: Row, existing: Row | undefined): Row {
  if (attributes.user_ids === undefined && attributes.admin_ids === undefined) return attributes;
  const users = idsOf(attributes.user_ids ?? existing?.user_ids);
  const admins = idsOf(attributes.admin_ids ?? existing?.admin_ids);
  if (attributes.admin_ids !== undefined) {
    return { ...attributes, user_ids: [...users, ...admins.filter((id) => !users.includes(id))], admin_ids: admins };
  }
  return { ...attributes, user_ids: users, admin_ids: admins.filter((id) => users.includes(id)) };
}

const sameIds = (a: unknown, b: unknown) => JSON.stringify(idsOf(a)) === JSON.stringify(idsOf(b));

/**
 * Who changes a group's members and admins (docs/security.md, Group membership): the
 * tenant's admins (role `admin`) and the group's own admins (the caller's user among its
 * `admin_ids`); anyone else with `ir.groups` write may change the group's other attributes
 * and send its lists back unchanged, but not change them (403). Creating a group is not
 * guarded: it changes nobody's existing membership.
 */
export function assertMayChangeMembers(settled: Row, existing: Row | undefined, principal: Principal): void {
  if (!existing || principal.role === 'admin') return;
  const changed = MEMBER_LISTS.some((list) => settled[list] !== undefined && !sameIds(settled[list], existing[list]));
  if (!changed || (principal.user_id !== null && idsOf(existing.admin_ids).includes(principal.user_id))) return;
  throw new ForbiddenError("Only the team's admins and your organization's admins may change its members and admins.", {
    code: 'not_group_admin',
  });
}
