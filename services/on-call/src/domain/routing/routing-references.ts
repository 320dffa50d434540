import type { ValidationIssue } from '@firewatch/errors';
import type { HookContext } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import type { Destination } from './alert-routes.schemas.js';

/**
 * What routing's writes name beyond themselves, checked in the write's transaction:
 * alert sources, destinations and urgencies of the caller's team (docs/paging.md,
 * "Alert routing"). Each unknown id is a 422 invalid_reference at its own pointer. A
 * source or destination the record already names passes, as owner groups do: one deleted
 * elsewhere stays named (routing passes over it) and does not block the record's updates.
 */

type Ctx = HookContext<OnCallResourceDeps>;

const destinationKey = (d: Destination) => `${d.target_type}:${d.target_id.toLowerCase()}`;

const invalid = (pointer: string, detail: string): ValidationIssue => ({ pointer, code: 'invalid_reference', detail });

/** Source ids the caller sees among the team's alert sources (a group key: its groups' sources only). */
export async function sourceIssues(
  ctx: Ctx,
  named: readonly { pointer: string; id: string }[],
  held: ReadonlySet<string> = new Set(),
): Promise<ValidationIssue[]> {
  const fresh = named.filter((n) => !held.has(n.id));
  if (!fresh.length) return [];
  const visible = await ctx.visibleIds(
    'alert_sources',
    fresh.map((n) => n.id),
  );
  return fresh.filter((n) => !visible.has(n.id)).map((n) => invalid(n.pointer, `No alert source "${n.id}" exists in this team.`));
}

/**
 * Destinations must be records on-call knows in this team under the type sent: services,
 * functionalities and teams from their events, escalation policies of its own
 * (targets.repository.ts). A record made a moment ago in another service may be refused
 * until its event arrives.
 */
export async function destinationIssues(
  ctx: Ctx,
  named: readonly { pointer: string; destination: Destination }[],
  held: readonly Destination[] = [],
): Promise<ValidationIssue[]> {
  const keys = new Set(held.map(destinationKey));
  const fresh = named.filter((n) => !keys.has(destinationKey(n.destination)));
  if (!fresh.length) return [];
  const types = await ctx.deps.targets.typesOf(
    ctx.tx,
    ctx.principal.team_id,
    fresh.map((n) => n.destination.target_id),
  );
  return fresh
    .filter((n) => !types.get(n.destination.target_id)?.includes(n.destination.target_type))
    .map((n) =>
      invalid(
        `${n.pointer}/target_id`,
        `No ${n.destination.target_type} "${n.destination.target_id}" is known in this team (a record made a moment ago is known here within seconds).`,
      ),
    );
}

/** Urgency ids that are not the team's (held FOR SHARE until the write ends, so a delete of one waits). */
export async function urgencyIssues(ctx: Ctx, named: readonly { pointer: string; id: string }[]): Promise<ValidationIssue[]> {
  if (!named.length) return [];
  const known = await ctx.deps.urgencies.existingIds(ctx.tx, ctx.principal.team_id, [...new Set(named.map((n) => n.id))]);
  return named.filter((n) => !known.has(n.id)).map((n) => invalid(n.pointer, `No alert urgency "${n.id}" exists in this team.`));
}
