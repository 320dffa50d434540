/**
 * What travels on the `firewatch.events` exchange (and is stored in `outbox.payload`).
 * Consumers dedupe by `id`: delivery is at-least-once.
 */
export interface EventEnvelope {
  /** UUID of the event, also the AMQP `messageId`. */
  id: string;
  /** One of `EVENT_TYPES`, also the routing key. */
  type: string;
  /** ISO 8601 time at which the change happened. */
  occurred_at: string;
  team_id: number;
  /** The JSON:API resource object (`{id, type, attributes}`) as the API returns it. */
  data: unknown;
  /**
   * The `X-Request-Id` of the API request that caused the event (consumers log it, and
   * events their handlers write carry it on). Absent for events of jobs and of older writers.
   */
  request_id?: string;
  /** W3C trace context of the span that wrote (or, on the bus, published) the event; only while tracing is on. */
  traceparent?: string;
}

/** What a writer supplies for one event; the id and default time are filled in. */
export interface EventInput {
  type: string;
  team_id: number;
  data: unknown;
  occurred_at?: Date;
}

/** Narrows a parsed message body to an envelope (structure only, not the catalog). */
export function isEventEnvelope(value: unknown): value is EventEnvelope {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    typeof v.type === 'string' &&
    typeof v.occurred_at === 'string' &&
    Number.isInteger(v.team_id) &&
    'data' in v
  );
}
