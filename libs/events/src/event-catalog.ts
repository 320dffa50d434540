/** The RabbitMQ topic exchange every service publishes its events to (durable; routing key = event type). */
export const EVENTS_EXCHANGE = 'firewatch.events';

/** Where consumer queues dead-letter messages that exceeded their delivery limit. */
export const EVENTS_DLX = 'firewatch.events.dlx';

const INCIDENT_TYPES = ['created', 'updated', 'in_triage', 'mitigated', 'resolved', 'cancelled', 'restarted', 'deleted'].map((a) => `incident.${a}`);

/** A computed on-call shift began (on-call's scheduler; each shift once, `meta.late` when announced after downtime). */
const SHIFT_TYPES = ['shift.started'];

/** Resources whose changes emit `<resource>.created|updated|deleted` (singular snake_case). */
const CRUD_RESOURCES = [
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
  'communications_type',
  'communications_stage',
  'communications_template',
  'alert_urgency',
  'alert_group',
  'alert_retrigger_rule',
  'schedule',
  'schedule_rotation',
  'schedule_rotation_active_day',
  'schedule_rotation_user',
  'override_shift',
  'webhooks_endpoint',
  'api_key',
] as const;

/**
 * The one catalog of event types in the code base. Writers may only emit these, the
 * webhooks API serves this list at `GET /v1/webhooks/event_types` and refuses
 * subscriptions to anything else.
 */
export const EVENT_TYPES: readonly string[] = Object.freeze([
  ...INCIDENT_TYPES,
  ...SHIFT_TYPES,
  ...CRUD_RESOURCES.flatMap((r) => ['created', 'updated', 'deleted'].map((a) => `${r}.${a}`)),
]);

const KNOWN = new Set(EVENT_TYPES);

/** True when `s` is one of {@link EVENT_TYPES}. */
export function isEventType(s: unknown): s is string {
  return typeof s === 'string' && KNOWN.has(s);
}

/**
 * Events between services only: auth's users feed on-call's read model with names,
 * emails and roles, which the reference offers no webhook for. The outbox accepts them;
 * they are not in {@link EVENT_TYPES}, so the webhooks API neither lists nor accepts
 * them, and the dispatcher never delivers them, even to endpoints that take every type.
 */
export const INTERNAL_EVENT_TYPES: readonly string[] = Object.freeze(['user.created', 'user.updated', 'user.deleted']);

const INTERNAL = new Set(INTERNAL_EVENT_TYPES);

/** True when `s` is one of {@link INTERNAL_EVENT_TYPES}. */
export function isInternalEventType(s: unknown): s is string {
  return typeof s === 'string' && INTERNAL.has(s);
}
