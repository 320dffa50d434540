import type { RoutingDecision } from './paging.ports.js';

/** A route's decision as the alert's timeline tells it: the route, the rule, where it sent the alert. */
export function describeRouting(decision: RoutingDecision & { route: NonNullable<RoutingDecision['route']> }): string {
  const to = decision.destinations.map((d) => `${d.target_type} ${d.target_id}`).join(', ');
  const route = `${decision.route.kind === 'alert_route' ? 'alert route' : 'alert routing rule'} ${decision.route.name} (${decision.route.id})`;
  const rule = decision.rule
    ? decision.rule.fallback
      ? ', fallback rule'
      : `, rule ${decision.rule.name} (position ${decision.rule.position})`
    : '';
  if (!decision.rule) return `Unrouted: ${route} has no rule matching the alert and no fallback rule.`;
  if (!decision.destinations.length) return `Unrouted: ${route}${rule} matched but sends the alert nowhere.`;
  return `Routed by ${route}${rule} to ${to}.`;
}
