import { z } from 'zod';
import { ValidationError, type ValidationIssue } from '@firewatch/errors';
import type { HookContext, Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { TARGET_TYPES, type TargetType } from '../targets/targets.deps.js';

/** Most targets one alert group lists. */
export const MAX_TARGETS = 50;

const TYPE_DESCRIPTION =
  'Optional: without it, the type is found from target_id among the services, functionalities and teams on-call knows of ' +
  '(their events), and an id not known yet is a 422 at this target_type. Answers always carry it.';

/** A target as a write sends it: `target_type` may be left out (docs/on-call.md, "Targets"). */
export const targetsInput = z
  .array(
    z.strictObject({
      target_type: z.enum(TARGET_TYPES).optional().meta({ description: TYPE_DESCRIPTION }),
      target_id: z.uuid().transform((id) => id.toLowerCase()),
    }),
  )
  .max(MAX_TARGETS)
  .meta({
    description:
      'Where the group applies: services, functionalities, teams (Group) and escalation policies. Each entry may give only target_id ' +
      'when the record is a service, functionality or team on-call has heard of; stored and answered with its target_type.',
  });

interface SentTarget {
  target_type?: TargetType;
  target_id: string;
}

function unresolved(index: number, id: string, types: readonly TargetType[] | undefined): ValidationIssue {
  return {
    pointer: `/data/attributes/targets/${index}/target_type`,
    code: 'invalid_reference',
    detail: types?.length
      ? `The id "${id}" names a record of each of these types: ${types.join(', ')}; give target_type.`
      : `No service, functionality or team with the id "${id}" is known in this team yet; give target_type (${TARGET_TYPES.join(', ')}) to name it anyway.`,
  };
}

/**
 * `targets` with every type filled: a target sent with its `target_type` is kept as sent
 * (the record may exist before its event reaches on-call), one without gets the type
 * the known targets give its id. An id not known, or known under two types, is a 422 at
 * its `target_type`; a target listed twice is a 422 at `targets`. Nothing else changes.
 */
export async function typedTargets(attributes: Row, ctx: HookContext<OnCallResourceDeps>): Promise<Row> {
  const sent = attributes.targets as SentTarget[] | undefined;
  if (!sent) return attributes;
  const untyped = sent.filter((t) => !t.target_type).map((t) => t.target_id);
  const known = untyped.length ? await ctx.deps.targets.typesOf(ctx.tx, ctx.principal.team_id, untyped) : new Map<string, TargetType[]>();
  const issues: ValidationIssue[] = [];
  const targets = sent.map((t, i) => {
    if (t.target_type) return { target_type: t.target_type, target_id: t.target_id };
    const types = known.get(t.target_id);
    if (types?.length !== 1) issues.push(unresolved(i, t.target_id, types));
    return { target_type: types?.[0], target_id: t.target_id };
  });
  const keys = targets.filter((t) => t.target_type).map((t) => `${t.target_type}:${t.target_id}`);
  if (new Set(keys).size !== keys.length)
    issues.push({ pointer: '/data/attributes/targets', code: 'invalid', detail: 'The alert group lists a target more than once.' });
  if (issues.length) throw new ValidationError(issues);
  return { ...attributes, targets };
}
