import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { TARGET_TYPES } from '../targets/targets.deps.js';
import { groupConditionChars, groupPatternCount } from '../alerts/alert-groups.conditions.js';
import { MAX_CONDITIONS } from '../matching/index.js';
import { compileCostIssue, conditionSetIssues, routeConditionSchema, type RouteCondition } from './routing.conditions.js';

/** Most alert routes per team: routing reads every enabled route of an alert's source. */
export const MAX_ALERT_ROUTES = 100;
/** Most rules per route, condition groups per rule, destinations per rule. */
export const MAX_RULES = 50;
export const MAX_CONDITION_GROUPS = 20;
export const MAX_DESTINATIONS = 20;
/**
 * Most characters of values and property names, and most matches_regex patterns, in one
 * route's conditions together: routing reads every route of a source for each alert.
 */
export const MAX_ROUTE_CONDITION_CHARS = 65_536;
export const MAX_ROUTE_PATTERNS = 40;
/** Highest position of a rule or a legacy routing rule. */
export const MAX_RULE_POSITION = 1_000_000;

const lowerUuid = z.uuid().transform((id) => id.toLowerCase());
const dropped = { id: z.uuid().optional(), _destroy: z.boolean().optional() };

/** Where a rule (or a legacy rule) sends an alert. */
export const destinationInput = z.strictObject({ target_type: z.enum(TARGET_TYPES), target_id: lowerUuid });
export type Destination = z.infer<typeof destinationInput> & { id?: string };

export interface StoredConditionGroup {
  id: string;
  position: number;
  conditions: RouteCondition[];
}

export interface StoredRule {
  id?: string;
  name: string;
  position: number;
  fallback_rule: boolean;
  destinations: (Destination & { id: string })[];
  condition_groups: StoredConditionGroup[];
}

const idOf = (id: string | undefined) => (id ?? randomUUID()).toLowerCase();
const kept = <T extends { _destroy?: boolean }>(list: readonly T[] | undefined) => (list ?? []).filter((e) => e._destroy !== true);

const conditionGroupInput = z.strictObject({
  ...dropped,
  position: z.number().int().min(0).max(MAX_RULE_POSITION).optional(),
  conditions: z
    .array(routeConditionSchema)
    .max(MAX_CONDITIONS)
    .superRefine((cs, ctx) => {
      for (const message of conditionSetIssues(cs)) ctx.addIssue({ code: 'custom', message });
    }),
});

const ruleInput = z
  .strictObject({
    ...dropped,
    name: z.string().trim().min(1).max(255).optional(),
    position: z.number().int().min(0).max(MAX_RULE_POSITION).optional(),
    fallback_rule: z.boolean().optional(),
    destinations: z.array(destinationInput.extend(dropped)).max(MAX_DESTINATIONS).optional(),
    condition_groups: z.array(conditionGroupInput).max(MAX_CONDITION_GROUPS).optional(),
  })
  .superRefine((rule, ctx) => {
    if (rule._destroy === true) return;
    for (const field of ['name', 'destinations', 'condition_groups'] as const)
      if (rule[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'is required' });
    if (rule.fallback_rule && kept(rule.condition_groups).length)
      ctx.addIssue({
        code: 'custom',
        path: ['condition_groups'],
        message: 'a fallback rule has no conditions: it takes what no other rule does',
      });
  });

/** A rule as stored: ids on its condition groups, conditions and destinations (new ones get one), `_destroy` entries left out. */
function storedRule(rule: z.infer<typeof ruleInput>, position: number): StoredRule {
  return {
    ...(rule.id ? { id: rule.id.toLowerCase() } : {}),
    name: rule.name ?? '',
    position,
    fallback_rule: rule.fallback_rule ?? false,
    destinations: kept(rule.destinations).map((d) => ({ id: idOf(d.id), target_type: d.target_type, target_id: d.target_id })),
    condition_groups: kept(rule.condition_groups).map((g, i) => ({
      id: idOf(g.id),
      position: g.position ?? i,
      conditions: g.conditions,
    })),
  };
}

/** The position after the highest one sent. */
const nextPosition = (rules: readonly { position?: number }[]) => Math.max(-1, ...rules.map((r) => r.position ?? -1)) + 1;

/**
 * `rules` as a write sends it: the whole set (docs/paging.md, "Alert routing"). A rule,
 * condition group or destination sent back with its `id` keeps it; `_destroy: true`
 * drops it. At most one fallback rule; positions of the other rules unique (a rule without
 * one goes after the others).
 */
export const rulesInput = z
  .array(ruleInput)
  .max(MAX_RULES)
  .superRefine((rules, ctx) => {
    const live = rules.map((r, i) => [r, i] as const).filter(([r]) => r._destroy !== true);
    const conditions = live.flatMap(([r]) => (r.condition_groups ?? []).filter((g) => g._destroy !== true).flatMap((g) => g.conditions));
    if (groupPatternCount(conditions) > MAX_ROUTE_PATTERNS)
      ctx.addIssue({ code: 'custom', message: `hold at most ${MAX_ROUTE_PATTERNS} matches_regex patterns together in one route` });
    if (groupConditionChars(conditions) > MAX_ROUTE_CONDITION_CHARS)
      ctx.addIssue({
        code: 'custom',
        message: `hold at most ${MAX_ROUTE_CONDITION_CHARS} characters of values and property names together in one route`,
      });
    const costly = compileCostIssue(conditions);
    if (costly) ctx.addIssue({ code: 'custom', message: costly });
    const fallbacks = live.filter(([r]) => r.fallback_rule);
    for (const [, i] of fallbacks.slice(1))
      ctx.addIssue({ code: 'custom', path: [i, 'fallback_rule'], message: 'a route has at most one fallback rule' });
    // Named, not numbered: after a PATCH merge the other rule may be one the write did not send.
    const seen = new Map<number, string | undefined>();
    for (const [r, i] of live) {
      if (r.fallback_rule || r.position === undefined) continue;
      if (!seen.has(r.position)) seen.set(r.position, r.name);
      else
        ctx.addIssue({
          code: 'custom',
          path: [i, 'position'],
          message: `is the position of rule "${seen.get(r.position)}" too; rules are tried by position`,
        });
    }
    // Rules sent without a position take the ones after the highest sent; past the last, two would share it.
    let next = nextPosition(live.map(([r]) => r));
    for (const [r, i] of live)
      if (r.position === undefined && next++ > MAX_RULE_POSITION)
        ctx.addIssue({
          code: 'custom',
          path: [i, 'position'],
          message: `is needed: no position after ${MAX_RULE_POSITION} is left for a rule sent without one`,
        });
  })
  .transform((rules) => {
    const live = rules.filter((r) => r._destroy !== true);
    // A rule sent without a position goes after those sent with one, in the order sent.
    let next = nextPosition(live);
    return live.map((r) => storedRule(r, r.position ?? next++));
  });
