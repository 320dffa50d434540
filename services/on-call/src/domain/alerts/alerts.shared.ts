import type { ValidationIssue } from '@firewatch/errors';
import { ValidationError } from '@firewatch/errors';
import type { HookContext } from '@firewatch/resource-kit';
import { EvaluationBudgetExceeded } from '../matching/index.js';
import type { OnCallResourceDeps } from '../on-call.deps.js';

/**
 * What the alert resources share: how an evaluation too costly to make is answered, how
 * conditions' urgency ids are checked, and the bound of positions.
 */

/**
 * Highest `position` of an urgency or a re-trigger rule. A record created without one
 * goes after the team's last, capped here, so a default is always a value that can be
 * written back.
 */
export const MAX_POSITION = 1_000_000;

/** `evaluate()`'s result, or the 422 too_costly (at /data/attributes/alert) of an alert over the evaluation's budget. */
export function withinBudget<T>(evaluate: () => T): T {
  try {
    return evaluate();
  } catch (error) {
    if (!(error instanceof EvaluationBudgetExceeded)) throw error;
    throw new ValidationError([{ pointer: '/data/attributes/alert', code: 'too_costly', detail: error.message }]);
  }
}

/** The urgency ids one condition names, and the field (under /data/attributes/conditions/<i>/) that lists them. */
export interface UrgencyReferences {
  field: string;
  ids: readonly string[];
}

/**
 * A 422 invalid_reference for each urgency id a condition names that is not one of the
 * team's (this service's own records, so checked here; the look-up locks them FOR SHARE).
 */
export async function unknownUrgencies(
  ctx: HookContext<OnCallResourceDeps>,
  conditions: readonly UrgencyReferences[],
): Promise<ValidationIssue[]> {
  const named = [...new Set(conditions.flatMap((c) => c.ids))];
  if (!named.length) return [];
  const known = await ctx.deps.urgencies.existingIds(ctx.tx, ctx.principal.team_id, named);
  return conditions.flatMap((c, i) =>
    c.ids.flatMap((id, j) =>
      known.has(id)
        ? []
        : [
            {
              pointer: `/data/attributes/conditions/${i}/${c.field}/${j}`,
              code: 'invalid_reference',
              detail: `No alert urgency "${id}" exists in this team.`,
            },
          ],
    ),
  );
}
