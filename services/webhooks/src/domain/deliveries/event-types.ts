import { EVENT_TYPES, isEventType, isInternalEventType } from '@firewatch/events';

export { isEventType };

/** The catalog served at `GET /v1/webhooks/event_types` as JSON:API resource objects. */
export function eventTypeResources() {
  return EVENT_TYPES.map((name) => {
    const dot = name.lastIndexOf('.');
    return { id: name, type: 'webhooks_event_types', attributes: { name, resource: name.slice(0, dot), action: name.slice(dot + 1) } };
  });
}

/**
 * An endpoint receives an event when it lists its type, or lists none (all types);
 * never an internal one (users' emails and roles for other services' read models).
 */
export function subscribes(eventTypes: readonly string[], type: string): boolean {
  if (isInternalEventType(type)) return false;
  return eventTypes.length === 0 || eventTypes.includes(type);
}

/** The delivered body, serialised once: `{"event": {id, type, occurred_at}, "data": ...}`. */
export function deliveryPayload(event: { id: string; type: string; occurred_at: string; data: unknown }): string {
  return JSON.stringify({ event: { id: event.id, type: event.type, occurred_at: event.occurred_at }, data: event.data ?? null });
}
