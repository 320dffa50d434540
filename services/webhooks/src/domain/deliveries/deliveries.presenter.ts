import type { ResourceObject } from '@firewatch/jsonapi';
import type { AttemptRow, DeliveryRow } from './deliveries.store.js';

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : (v ?? null));

/** A delivery as the API returns it: the reference's attributes plus its state. */
export function toDeliveryResource(row: DeliveryRow): ResourceObject {
  return {
    id: row.id,
    type: 'webhooks_deliveries',
    attributes: {
      endpoint_id: row.endpoint_id,
      payload: row.payload,
      delivered_at: iso(row.delivered_at),
      event_id: row.event_id,
      event_type: row.event_type,
      status: row.status,
      attempt_count: row.attempt_count,
      next_attempt_at: iso(row.next_attempt_at),
      last_status_code: row.last_status_code ?? null,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    },
  };
}

/** An attempt as the API returns it: its row. */
export function toAttemptResource(row: AttemptRow): ResourceObject {
  const { id, created_at, ...rest } = row;
  return { id, type: 'webhooks_delivery_attempts', attributes: { ...rest, created_at: iso(created_at) } };
}
