/**
 * The incident lifecycle as the reference's status actions drive it
 * (`PUT /v1/incidents/{id}/in_triage|mitigate|resolve|cancel|restart`). Pure: it says
 * which columns a transition writes, or why it makes no sense; the action writes them.
 */

/** Statuses an incident passes through here (the reference lists more: scheduled, closed, ...). */
export const INCIDENT_STATUSES = ['in_triage', 'started', 'mitigated', 'resolved', 'cancelled'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** Statuses a new incident may start in; the rest are reached through the actions. */
export const INITIAL_STATUSES = ['in_triage', 'started'] as const;

export const INCIDENT_ACTIONS = ['in_triage', 'mitigate', 'resolve', 'cancel', 'restart'] as const;
export type IncidentAction = (typeof INCIDENT_ACTIONS)[number];

interface ActionRule {
  to: IncidentStatus;
  from: readonly IncidentStatus[];
  /** The event stem's suffix: `mitigated` gives `incident.mitigated`. */
  event: string;
}

const RULES: Record<IncidentAction, ActionRule> = {
  // Back to triage only before anyone worked on it further.
  in_triage: { to: 'in_triage', from: ['started'], event: 'in_triage' },
  mitigate: { to: 'mitigated', from: ['in_triage', 'started'], event: 'mitigated' },
  resolve: { to: 'resolved', from: ['in_triage', 'started', 'mitigated'], event: 'resolved' },
  // A resolved incident happened; cancelling it would rewrite history.
  cancel: { to: 'cancelled', from: ['in_triage', 'started', 'mitigated'], event: 'cancelled' },
  restart: { to: 'started', from: ['in_triage', 'mitigated', 'resolved', 'cancelled'], event: 'restarted' },
};

/** What a transition writes: the columns and the event suffix. */
export interface Transition {
  changes: Record<string, unknown>;
  event: string;
}

/** The current status and timestamps the machine reads (a stored incident row). */
export interface IncidentState {
  status?: unknown;
  started_at?: unknown;
  mitigated_at?: unknown;
}

/** The columns a new incident starts with, for its initial status. */
export function initialState(status: (typeof INITIAL_STATUSES)[number], now: Date): Record<string, unknown> {
  return status === 'in_triage' ? { status, in_triage_at: now } : { status, started_at: now };
}

/**
 * The transition `action` makes from `current`, or a sentence saying why it cannot
 * (resolving a cancelled incident). `message` is the action's mitigation, resolution or
 * cancellation message.
 */
export function transition(current: IncidentState, action: IncidentAction, now: Date, message?: string | null): Transition | string {
  const rule = RULES[action];
  const status = current.status as IncidentStatus;
  if (status === rule.to) return `The incident is already ${label(status)}.`;
  if (!rule.from.includes(status)) return `A ${label(status)} incident cannot be ${done(action)}.`;
  const changes: Record<string, unknown> = { status: rule.to };
  // Leaving triage for any end means the incident was under way: it gets its start.
  if (status === 'in_triage' && action !== 'restart') changes.started_at = current.started_at ?? now;
  switch (action) {
    case 'in_triage':
      changes.in_triage_at = now;
      break;
    case 'mitigate':
      Object.assign(changes, { mitigated_at: now, mitigation_message: message ?? null });
      break;
    case 'resolve':
      // Resolving implies the impact ended: keep a mitigation time, or take this one.
      Object.assign(changes, { resolved_at: now, resolution_message: message ?? null, mitigated_at: current.mitigated_at ?? now });
      break;
    case 'cancel':
      Object.assign(changes, { cancelled_at: now, cancellation_message: message ?? null });
      break;
    case 'restart':
      // The incident is ongoing again: the ends it had no longer hold.
      Object.assign(changes, {
        started_at: current.started_at ?? now,
        mitigated_at: null,
        mitigation_message: null,
        resolved_at: null,
        resolution_message: null,
        cancelled_at: null,
        cancellation_message: null,
      });
      break;
  }
  return { changes, event: rule.event };
}

function label(status: IncidentStatus): string {
  return status === 'in_triage' ? 'in triage' : status;
}

function done(action: IncidentAction): string {
  return { in_triage: 'put in triage', mitigate: 'mitigated', resolve: 'resolved', cancel: 'cancelled', restart: 'restarted' }[action];
}
