/** The RabbitMQ topic exchange every service publishes its events to (durable; routing key = event type). */
export const EVENTS_EXCHANGE = 'firewatch.events';

/** Where consumer queues dead-letter messages that exceeded their delivery limit. */
export const EVENTS_DLX = 'firewatch.events.dlx';

/** The processes on the bus, by the names they have in configuration, logs and broker users. */
export const BUS_SERVICES = ['auth', 'incident-config', 'communications', 'on-call', 'webhooks', 'webhook-dispatcher'] as const;

export type BusService = (typeof BUS_SERVICES)[number];

/**
 * Resources whose changes emit `<resource>.created|updated|deleted` (singular snake_case),
 * under the service that owns them: only that service may publish them.
 */
const CRUD_RESOURCES = {
  'incident-config': [
    'incident_event',
    'environment',
    'service',
    'functionality',
    'catalog_property',
    'incident_role',
    'retrospective_process',
    'form_set',
    'form_set_condition',
    'dashboard',
    'dashboard_panel',
    'secret',
    'authorization',
    'incident_event_service',
    'severity',
    'incident_type',
  ],
  communications: ['communications_type', 'communications_stage', 'communications_template'],
  'on-call': [
    'alert_urgency',
    'alert_group',
    'alert_retrigger_rule',
    'alert_source',
    // Notes on an alert's timeline (the only alert events written through the API).
    'alert_event',
    'schedule',
    'schedule_rotation',
    'schedule_rotation_active_day',
    'schedule_rotation_user',
    'override_shift',
    'heartbeat',
    'escalation_policy',
    'escalation_path',
    'escalation_level',
    'alert_route',
    'alert_routing_rule',
  ],
  webhooks: ['webhooks_endpoint'],
  auth: ['api_key', 'group'],
} as const;

const INCIDENT_TYPES = ['created', 'updated', 'in_triage', 'mitigated', 'resolved', 'cancelled', 'restarted', 'deleted'].map(
  (a) => `incident.${a}`,
);

/**
 * Alerts are never deleted; acknowledge, resolve and snooze are their own events, and so is
 * an alert triggered again by its re-trigger timer or at its snooze's end (on-call, issue 23).
 * `alert.notification` is each attempt of the paging engine to reach a person, naming the
 * user, channel and outcome, so a webhook can carry pages to any other channel (issue 24).
 */
const ALERT_TYPES = ['created', 'updated', 'acknowledged', 'resolved', 'snoozed', 'retriggered', 'notification'].map((a) => `alert.${a}`);

/** A computed on-call shift began (on-call's scheduler; each shift once, `meta.late` when announced after downtime). */
const SHIFT_TYPES = ['shift.started'];

/** A heartbeat was pinged, or was not pinged in time (on-call's expiry job; each expiry once, `late` when noticed after downtime). */
const HEARTBEAT_TYPES = ['heartbeat.pinged', 'heartbeat.expired'];

/**
 * The one catalog of event types in the code base. Writers may only emit these, the
 * webhooks API serves this list at `GET /v1/webhooks/event_types` and refuses
 * subscriptions to anything else.
 */
export const EVENT_TYPES: readonly string[] = Object.freeze([
  ...INCIDENT_TYPES,
  ...SHIFT_TYPES,
  ...HEARTBEAT_TYPES,
  ...ALERT_TYPES,
  ...Object.values(CRUD_RESOURCES)
    .flat()
    .flatMap((r) => ['created', 'updated', 'deleted'].map((a) => `${r}.${a}`)),
]);

const KNOWN = new Set(EVENT_TYPES);

/** True when `s` is one of {@link EVENT_TYPES}. */
export function isEventType(s: unknown): s is string {
  return typeof s === 'string' && KNOWN.has(s);
}

/**
 * On-call's records of how a user is reached: their email addresses, phone numbers and
 * notification rules. Personal data only the user and on-call admins may read, while a
 * webhook endpoint is an incident-side admin's (docs/security.md): internal.
 */
const PERSONAL_RESOURCES = ['user_email_address', 'user_phone_number', 'user_notification_rule'] as const;

/**
 * Events between services only: auth's users feed on-call's read model with names,
 * emails and roles, and on-call's contact methods say how a person is reached; the
 * reference offers no webhook for either. The outbox accepts them; they are not in
 * {@link EVENT_TYPES}, so the webhooks API neither lists nor accepts them, and the
 * dispatcher never delivers them, even to endpoints that take every type.
 */
export const INTERNAL_EVENT_TYPES: readonly string[] = Object.freeze([
  'user.created',
  'user.updated',
  'user.deleted',
  ...PERSONAL_RESOURCES.flatMap((r) => ['created', 'updated', 'deleted'].map((a) => `${r}.${a}`)),
]);

const INTERNAL = new Set(INTERNAL_EVENT_TYPES);

/** True when `s` is one of {@link INTERNAL_EVENT_TYPES}. */
export function isInternalEventType(s: unknown): s is string {
  return typeof s === 'string' && INTERNAL.has(s);
}

/**
 * Event families (a type up to its dot) by the one service that publishes them, and the
 * only one whose broker user may (docs/security.md, "The event bus"). The dispatcher
 * publishes nothing.
 */
export const EVENT_FAMILIES: Readonly<Record<BusService, readonly string[]>> = Object.freeze({
  auth: ['user', ...CRUD_RESOURCES.auth],
  'incident-config': ['incident', ...CRUD_RESOURCES['incident-config']],
  communications: [...CRUD_RESOURCES.communications],
  'on-call': ['shift', 'alert', ...CRUD_RESOURCES['on-call'], ...PERSONAL_RESOURCES],
  webhooks: [...CRUD_RESOURCES.webhooks],
  'webhook-dispatcher': [],
});

const familyOf = (type: string) => type.slice(0, type.indexOf('.'));

const OWNERS = new Map(BUS_SERVICES.flatMap((service) => EVENT_FAMILIES[service].map((family) => [family, service] as const)));

/** The service that publishes events of `type`, or undefined for a type outside the catalog. */
export function eventOwner(type: string): BusService | undefined {
  if (!isEventType(type) && !isInternalEventType(type)) return undefined;
  return OWNERS.get(familyOf(type));
}

/** A consumer's durable queue (its default name) and the routing-key patterns bound to it. */
export interface EventQueue {
  queue: string;
  bindings: readonly string[];
}

/** The services that consume events, each from one queue of its own. */
export const EVENT_CONSUMERS = ['on-call', 'incident-config', 'webhook-dispatcher'] as const;

export type EventConsumer = (typeof EVENT_CONSUMERS)[number];

/**
 * Every consumer on the bus; provisioning declares these queues and bindings (consumers
 * may not). The dispatcher takes the families webhooks may subscribe to, so the process
 * that parses answers from the internet never receives internal events (users' names
 * and emails).
 */
export const EVENT_QUEUES: Readonly<Record<EventConsumer, EventQueue>> = Object.freeze({
  // on-call's read models: auth's users and teams, incident-config's services and functionalities (alert group targets).
  // The queue keeps its first name so that a deployment keeps its queue (docs/decisions.md, "On-call's event queue").
  'on-call': { queue: 'on-call.users', bindings: ['user.*', 'group.*', 'service.*', 'functionality.*'] },
  // Owner groups and retrospective criteria name teams: incident-config keeps auth's groups.
  'incident-config': { queue: 'incident-config.groups', bindings: ['group.*'] },
  'webhook-dispatcher': { queue: 'webhook-dispatcher', bindings: [...new Set(EVENT_TYPES.map(familyOf))].map((family) => `${family}.*`) },
});
