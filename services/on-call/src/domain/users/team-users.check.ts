import type { ValidationIssue } from '@firewatch/errors';
import type { HookContext } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';

/**
 * A 422 for each user id that is no live user of the caller's team in on-call's users
 * read model (fed by auth's user events): owners, rotation members and override users
 * are people of the team. `named`: attribute name → the id it gives. An update keeping
 * the id it had is not judged again: a user deleted since stays named where it was.
 */
export async function teamUserIssues(ctx: HookContext<OnCallResourceDeps>, named: Record<string, unknown>): Promise<ValidationIssue[]> {
  const entries = Object.entries(named).filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] !== ctx.existing?.[e[0]]);
  if (!entries.length) return [];
  const known = await ctx.deps.users.existing(ctx.tx, ctx.principal.team_id, [...new Set(entries.map(([, id]) => id))]);
  return entries
    .filter(([, id]) => !known.has(id))
    .map(([attribute, id]) => ({
      pointer: `/data/attributes/${attribute}`,
      code: 'invalid_reference',
      detail: `${attribute}: ${id} is not a user of this team.`,
    }));
}
