import type { ValidationIssue } from '@firewatch/errors';
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
