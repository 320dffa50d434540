import {
  EvaluationBudgetExceeded,
  evaluationBudget,
  evaluationOrder,
  selectRule,
  type AlertInput,
  type Condition,
  type EvaluationBudget,
  type MatchMode,
} from '../matching/index.js';
import type { AlertDestination, RoutingDecision } from '../paging/paging.ports.js';
import type { StoredConditionGroup } from './alert-routes.schemas.js';
import { toEngineCondition } from '../alerts/alert-groups.conditions.js';
import { legacyAsGroupCondition, type LegacyCondition } from './routing.conditions.js';

/**
 * The routing engine (docs/paging.md, "Alert routing"): pure, on the matching engine's
 * `selectRule`. An alert goes where the first matching rule sends it:
 *
 * 1. the enabled alert routes listing its source, oldest first (created_at, then id);
 *    within a route its rules by position, a rule matching when any of its condition
 *    groups holds (all of the group's conditions; a rule without groups matches every
 *    alert), else the route's fallback rule, else the next route;
 * 2. then the source's enabled legacy alert routing rules by position (then age), each
 *    with its conditions in its condition_type (all/any; none: every alert).
 *
 * An alert too costly to judge (the evaluation's budget) matches no rule whose conditions
 * had to be judged: fallback rules still take it, so routing never throws on an alert.
 */

export interface RouteRuleRecord {
  id: string;
  name: string;
  position: number;
  fallback_rule: boolean;
  destinations: readonly AlertDestination[];
  condition_groups: readonly Pick<StoredConditionGroup, 'conditions'>[];
}

export interface AlertRouteRecord {
  id: string;
  name: string;
  enabled: boolean;
  alerts_source_ids: readonly string[];
  created_at: string | Date;
  rules: readonly RouteRuleRecord[];
}

export interface LegacyRuleRecord {
  id: string;
  name: string;
  enabled: boolean;
  alerts_source_id: string;
  position: number;
  created_at: string | Date;
  condition_type: 'all' | 'any';
  conditions: readonly LegacyCondition[];
  destination: AlertDestination;
}

const NOWHERE: RoutingDecision = { destinations: [], route: null, rule: null };

const stamp = (value: string | Date) => (value instanceof Date ? value.toISOString() : value);

/** Destinations as a decision carries them: type and id only. */
const destinationsOf = (list: readonly AlertDestination[]) => list.map(({ target_type, target_id }) => ({ target_type, target_id }));

/** One condition group of one rule, as the selector ranks it: rules by position, each rule's groups together. */
interface GroupEntry {
  id: string;
  position: number;
  conditions: Condition[];
  rule: RouteRuleRecord;
}

/** The rule of `route` that takes the alert, or null: the first matching rule by position, else the fallback. */
function ruleOf(route: AlertRouteRecord, alert: AlertInput, budget: EvaluationBudget): RouteRuleRecord | null {
  const fallback = route.rules.find((r) => r.fallback_rule) ?? null;
  const ordered = evaluationOrder(route.rules.filter((r) => !r.fallback_rule).map((r) => ({ ...r, rule: r, conditions: [] })));
  // A rule without groups is one empty group, which always holds; entries keep the rules' order (their index is their position).
  const entries: GroupEntry[] = ordered.flatMap(({ rule }) =>
    (rule.condition_groups.length ? rule.condition_groups : [{ conditions: [] }]).map((g) => ({
      id: rule.id,
      position: 0,
      rule,
      conditions: g.conditions.map(toEngineCondition),
    })),
  );
  entries.forEach((e, i) => (e.position = i));
  try {
    return selectRule(entries, alert, () => 'all', {}, budget).rule?.rule ?? fallback;
  } catch (error) {
    if (error instanceof EvaluationBudgetExceeded) return fallback;
    throw error;
  }
}

/** The first legacy rule of the source that the alert meets, or null. */
function legacyRuleOf(rules: readonly LegacyRuleRecord[], alert: AlertInput, budget: EvaluationBudget): LegacyRuleRecord | null {
  const ranked = rules.map((rule) => ({
    id: rule.id,
    position: rule.position,
    created_at: rule.created_at,
    rule,
    conditions: rule.conditions.map((c) => toEngineCondition(legacyAsGroupCondition(c))),
  }));
  try {
    return selectRule(ranked, alert, (r): MatchMode => r.rule.condition_type, {}, budget).rule?.rule ?? null;
  } catch (error) {
    if (error instanceof EvaluationBudgetExceeded) return null;
    throw error;
  }
}

/**
 * Where `alert` goes among `routes` and `legacy` (any team's records: those not enabled
 * or not of the alert's source are passed over here too). One budget for the whole
 * decision, as grouping has one per intake.
 */
export function decideRoute(
  alert: AlertInput,
  routes: readonly AlertRouteRecord[],
  legacy: readonly LegacyRuleRecord[],
  budget: EvaluationBudget = evaluationBudget(),
): RoutingDecision {
  const source = alert.source_id?.toLowerCase();
  if (!source) return NOWHERE;
  const candidates = routes
    .filter((r) => r.enabled && r.alerts_source_ids.some((id) => id.toLowerCase() === source))
    .sort((a, b) => stamp(a.created_at).localeCompare(stamp(b.created_at)) || a.id.localeCompare(b.id));
  for (const route of candidates) {
    const rule = ruleOf(route, alert, budget);
    if (rule)
      return {
        destinations: destinationsOf(rule.destinations),
        route: { id: route.id, name: route.name, kind: 'alert_route' },
        rule: { name: rule.name, position: rule.position, fallback: rule.fallback_rule },
      };
  }
  const mine = legacy.filter((r) => r.enabled && r.alerts_source_id.toLowerCase() === source);
  const rule = legacyRuleOf(mine, alert, budget);
  if (!rule) return NOWHERE;
  return {
    destinations: destinationsOf([rule.destination]),
    route: { id: rule.id, name: rule.name, kind: 'alert_routing_rule' },
    rule: { name: rule.name, position: rule.position, fallback: false },
  };
}
