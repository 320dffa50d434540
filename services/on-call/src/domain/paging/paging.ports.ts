import type { Row, Transaction } from '@firewatch/resource-kit';

/**
 * The seams of the paging loop (issue 24): routing decides where an alert goes, the
 * escalation plans say who a level pages, the notifier reaches a person, and the paging
 * engine (paging/) drives the three with durable timers. Each side is built and tested on
 * its own; app.ts joins them.
 */

/** Where an alert may be sent: the reference's routing destinations, plus a user directly. */
export type DestinationType = 'EscalationPolicy' | 'Service' | 'Group' | 'Functionality' | 'User';

export interface AlertDestination {
  target_type: DestinationType;
  /** A UUID, or for `User` the user's integer id as a string. */
  target_id: string;
}

/** What routing decided for one alert, kept whole in the alert's events ("why was I paged"). */
export interface RoutingDecision {
  destinations: AlertDestination[];
  /** The alert route (or legacy alert routing rule) that matched, null when none did. */
  route: { id: string; name: string; kind: 'alert_route' | 'alert_routing_rule' } | null;
  /** The rule of the route that matched; `fallback` when no other rule did. */
  rule: { name: string; position: number; fallback: boolean } | null;
}

/** Routing (alert routes and alert routing rules, on the matching engine). */
export interface AlertRouter {
  /**
   * Where the team's routes send this alert (an `alerts` row as stored, with its source id,
   * urgency, labels and payload `data`). An alert that names its own
   * `notification_target_type`/`notification_target_id` is not routed: the engine sends it there.
   */
  route(tx: Transaction, teamId: number, alert: Row): Promise<RoutingDecision>;
}

/** One target of an escalation level, as stored (`notification_target_params`). */
export interface LevelTarget {
  type: 'user' | 'schedule' | 'team' | 'service' | 'slack_channel' | 'microsoft_teams_channel';
  id: string;
  team_members?: 'all' | 'admins' | 'escalate' | null;
}

export interface EscalationLevelPlan {
  id: string;
  position: number;
  /** Minutes after this level pages before the next one does. */
  delay: number;
  paging_strategy: 'default' | 'random' | 'cycle' | 'alert';
  schedule_strategy: 'on_call_only' | 'everyone';
  targets: LevelTarget[];
}

/** The path of a policy an alert follows, its levels by position. */
export interface EscalationPathPlan {
  policy: { id: string; name: string };
  path: { id: string; name: string; is_default: boolean };
  /** Minutes before level 1 pages. */
  initial_delay: number;
  notification_type: 'audible' | 'quiet';
  /** How many more times the whole path runs after its last level when nobody acknowledges (0: once). */
  repeat_count: number;
  levels: EscalationLevelPlan[];
  /** Why this path: the rules that matched, or "default". */
  reason: string;
}

/** How one target of a level became people, for the alert's events. */
export interface TargetResolution {
  target: LevelTarget;
  user_ids: number[];
  /** A team whose members escalate to its own policy: that policy, paged as well (never twice for one alert). */
  policies: { id: string; name: string }[];
  /** e.g. "schedule Primary: on call now Ada (override)", "team SRE: 3 members", "user 12 deleted: skipped". */
  explanation: string;
}

/** Escalation policies, their paths and levels, and who a level pages. */
export interface EscalationPlans {
  /** The policy a destination leads to: the policy itself, or the one naming the team or service; null when none. */
  policyFor(tx: Transaction, teamId: number, destination: AlertDestination): Promise<{ id: string; name: string } | null>;
  /** The path this alert follows at `at` (rules, time restrictions in the path's zone, else the default path). */
  pathFor(tx: Transaction, teamId: number, policyId: string, alert: Row, at: Date): Promise<EscalationPathPlan | null>;
  /** Who each target of the level pages at `at` (schedules: on call now, overrides included), in target order. */
  resolveLevel(tx: Transaction, teamId: number, level: EscalationLevelPlan, alert: Row, at: Date): Promise<TargetResolution[]>;
}

/** A person to reach, through one contact method. */
export interface NotificationRequest {
  team_id: number;
  /** The `alerts` row: summary, description, status, external_url, short_id, urgency. */
  alert: Row;
  user: { user_id: number; name: string; email: string; time_zone: string };
  channel: 'email' | 'sms' | 'voice';
  /** The email address or E.164 number. */
  address: string;
  /** The contact method's id, null for the account email used when the user has none. */
  contact_method_id: string | null;
  /** Unique per attempt: providers' idempotency and the signed links' single use hang on it. */
  attempt_id: string;
  notification_type: 'audible' | 'quiet';
}

export interface NotificationOutcome {
  status: 'sent' | 'failed' | 'skipped';
  /** The provider's id of the message or call, when it gave one. */
  provider_id?: string;
  /** Why it failed or was skipped (channel not configured...), safe to show the team. */
  reason?: string;
}

/** The channels (email over SMTP, SMS and voice through Twilio). Called outside any transaction. */
export interface Notifier {
  send(request: NotificationRequest): Promise<NotificationOutcome>;
}
