import { z } from 'zod';
import type { ValidationIssue } from '@firewatch/errors';
import type { HookContext, Row } from '@firewatch/resource-kit';
import type { TargetsDeps } from './targets.deps.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Team ids as stored and compared: PostgreSQL's lower-case spelling of a UUID. */
export const normalGroupId = (id: string) => id.toLowerCase();

/** `owner_group_ids` as a write takes it: lower-cased, without repeats, null for none. */
export const ownerGroupIds = z
  .array(z.string().min(1).max(255).transform(normalGroupId))
  .max(100)
  .nullable()
  .transform((v) => [...new Set(v ?? [])])
  .describe(
    'Ids of teams of the tenant (GET /v1/teams). Each id a write newly names must be a team (422 otherwise); one made a moment ago is accepted within seconds.',
  );

/**
 * A 422 issue for each id of a write's `owner_group_ids` that the record does not hold
 * already and that is no live team of the caller's tenant in the targets read model
 * (auth's `group.*` events): unknown, deleted, or another tenant's, which reads as
 * unknown so it never leaks. Ids held pass, compared lower-cased, so a record naming a
 * deleted team, or a legacy name auth never made a team of (migration 0400), can still
 * be updated; adding such an id cannot. A team made a moment ago may be refused until
 * its event arrives (docs/on-call.md, "Owner groups").
 */
export async function ownerGroupIssues(
  attributes: Row,
  ctx: HookContext<{ targets: TargetsDeps }>,
  // Alert routes and routing rules call theirs owning_team_ids, as the reference does.
  attribute = 'owner_group_ids',
): Promise<ValidationIssue[]> {
  if (!Array.isArray(attributes[attribute])) return [];
  const ids = attributes[attribute] as string[];
  const held = new Set(((ctx.existing?.[attribute] as string[] | undefined) ?? []).map(normalGroupId));
  // Anything but a UUID names no team, and the read model's uuid column would refuse to compare it.
  const fresh = ids.filter((id) => !held.has(id) && UUID.test(id));
  const types = fresh.length ? await ctx.deps.targets.typesOf(ctx.tx, ctx.principal.team_id, fresh) : new Map();
  return ids.flatMap((id, i) =>
    held.has(id) || types.get(id)?.includes('Group')
      ? []
      : [
          {
            pointer: `/data/attributes/${attribute}/${i}`,
            code: 'invalid_reference',
            detail: `${attribute}: no team "${id}" (GET /v1/teams lists them by id; a team made a moment ago is known here within seconds).`,
          },
        ],
  );
}
