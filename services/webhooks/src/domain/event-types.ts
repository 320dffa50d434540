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

/**
 * True when `next` would deliver some event type `current` does not: `[]` (every type)
 * after a list, or a type the list lacks. A record-scoped key may narrow an endpoint's
 * subscription but never widen it, or it could read events about records outside its list.
 */
export function widensSubscription(current: readonly string[], next: readonly string[]): boolean {
  if (current.length === 0) return false;
  return next.length === 0 || next.some((t) => !current.includes(t));
}

/** The delivered body, serialised once: `{"event": {id, type, occurred_at}, "data": ...}`. */
export function deliveryPayload(event: { id: string; type: string; occurred_at: string; data: unknown }): string {
  return JSON.stringify({ event: { id: event.id, type: event.type, occurred_at: event.occurred_at }, data: event.data ?? null });
}
