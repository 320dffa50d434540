import type { Row, Transaction } from '@firewatch/resource-kit';
import type { AlertEventInput } from '../alerts-in/alerts-in.deps.js';
import type { AlertDestination, AlertRouter, EscalationPathPlan, EscalationPlans, RoutingDecision } from './paging.ports.js';

/** Who caused a change of paging: the API's acting user, a job, a signed link. */
export interface PagingActor {
  source: string;
  user_id: number | null;
}

/** Adds one alert event (the engine's: source `paging` unless an actor is given). */
export type RecordEvent = (
  tx: Transaction,
  alert: Row,
  kind: AlertEventInput['kind'],
  action: AlertEventInput['action'],
  details: string,
  actor?: PagingActor,
) => Promise<void>;

/**
 * Where a starting paging goes (docs/paging.md, "The paging engine"): the alert's own
 * target or the router's destinations, and the path each destination leads to, each
 * decision on the alert's timeline.
 */
export function createPagingDestinations({ router, plans, record }: { router: AlertRouter; plans: EscalationPlans; record: RecordEvent }) {
  /** Where the alert goes: the target it names, else the first matching route's destinations. */
  async function destinations(tx: Transaction, alert: Row): Promise<AlertDestination[]> {
    const type = alert.notification_target_type as AlertDestination['target_type'] | null;
    if (type && alert.notification_target_id) {
      const destination = { target_type: type, target_id: String(alert.notification_target_id) };
      await record(tx, alert, 'alert_routing', 'paged', `Not routed: the alert names its target, ${type} ${destination.target_id}.`);
      return [destination];
    }
    const decision = await router.route(tx, Number(alert.team_id), alert);
    // No route for its source: nothing was configured to page, and the timeline says nothing of it.
    const { route } = decision;
    if (route)
      await record(tx, alert, 'alert_routing', decision.destinations.length ? 'paged' : 'skipped', describeRouting({ ...decision, route }));
    return decision.destinations;
  }

  /** The path a destination leads to: its policy's (the path rules pick), or a one-level page of a user. */
  async function planFor(tx: Transaction, alert: Row, destination: AlertDestination, at: Date): Promise<EscalationPathPlan | null> {
    const teamId = Number(alert.team_id);
    if (destination.target_type === 'User') return userPlan(destination.target_id);
    const policy = await plans.policyFor(tx, teamId, destination);
    if (!policy) {
      await record(
        tx,
        alert,
        'alert_routing',
        'skipped',
        `${destination.target_type} ${destination.target_id} leads to no escalation policy: nobody paged for it.`,
      );
      return null;
    }
    const plan = await plans.pathFor(tx, teamId, policy.id, alert, at);
    if (!plan)
      await record(
        tx,
        alert,
        'action',
        'skipped',
        `Escalation policy ${policy.name} (${policy.id}) has no path for this alert: nobody paged for it.`,
      );
    return plan;
  }

  return { destinations, planFor };
}

/** A user paged directly (an alert or route naming a user): one level, that user, once. */
function userPlan(userId: string): EscalationPathPlan {
  return {
    policy: { id: '', name: `user ${userId}` },
    path: { id: '', name: 'direct', is_default: true },
    initial_delay: 0,
    notification_type: 'audible',
    repeat_count: 0,
    levels: [
      { id: '', position: 1, delay: 0, paging_strategy: 'default', schedule_strategy: 'everyone', targets: [{ type: 'user', id: userId }] },
    ],
    reason: 'the alert is sent to this user directly',
  };
}

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
