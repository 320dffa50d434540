import { authorize, type Principal } from '@firewatch/auth';
import { ConflictError, NotFoundError } from '@firewatch/errors';
import type { ResourceObject } from '@firewatch/jsonapi';
import type { ResourceService } from '@firewatch/resource-kit';
import type { AttemptRow, DeliveriesRepository, DeliveryListQuery, DeliveryRow } from '../data/deliveries.repository.js';
import { WEBHOOKS_PERMISSION } from './webhooks-permission.js';

/** `include=attempts` carries at most this many (the latest) per delivery; `/attempts` pages through all. */
export const INCLUDED_ATTEMPTS_MAX = 20;
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : (v ?? null));

/** A delivery as the API returns it: spec 2.16's attributes plus its state. */
export function serializeDelivery(row: DeliveryRow): ResourceObject {
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

export function serializeAttempt(row: AttemptRow): ResourceObject {
  const { id, created_at, ...rest } = row;
  return { id, type: 'webhooks_delivery_attempts', attributes: { ...rest, created_at: iso(created_at) } };
}

/**
 * Deliveries hold the payloads sent, so they need what endpoints need (WEBHOOKS_PERMISSION),
 * judged before the delivery is looked up: a refused caller learns nothing of which ids exist.
 */
export function createDeliveriesService(deps: { repository: DeliveriesRepository; endpoints: ResourceService }) {
  const { repository } = deps;

  async function load(principal: Principal, id: string, action: 'read' | 'update'): Promise<DeliveryRow> {
    authorize(principal, { ...WEBHOOKS_PERMISSION, action });
    const row = await repository.find(principal.team_id, id);
    if (!row) throw new NotFoundError(`No webhook delivery with id "${id}".`);
    return row;
  }

  async function attemptsOf(rows: DeliveryRow[]) {
    return (await repository.latestAttempts(rows.map((r) => r.id), INCLUDED_ATTEMPTS_MAX)).map(serializeAttempt);
  }

  return {
    async listForEndpoint(principal: Principal, endpointIdOrSlug: string, query: DeliveryListQuery, include: string[]) {
      const { record: endpoint } = await deps.endpoints.get(principal, endpointIdOrSlug);
      const { rows, total } = await repository.listByEndpoint(principal.team_id, endpoint.id, query);
      return { records: rows.map(serializeDelivery), total, included: include.includes('attempts') ? await attemptsOf(rows) : [] };
    },
    async get(principal: Principal, id: string, include: string[]) {
      const row = await load(principal, id, 'read');
      return { record: serializeDelivery(row), included: include.includes('attempts') ? await attemptsOf([row]) : [] };
    },
    async attempts(principal: Principal, id: string, page: { number: number; size: number }) {
      const row = await load(principal, id, 'read');
      const { rows, total } = await repository.attempts([row.id], page);
      return { records: rows.map(serializeAttempt), total };
    },
    /** Sends the delivery again now (the dispatcher picks it up within its poll interval), with the same webhook-id. */
    async redeliver(principal: Principal, id: string) {
      const row = await load(principal, id, 'update');
      if (!(await repository.endpointEnabled(principal.team_id, row.endpoint_id))) {
        throw new ConflictError('The endpoint of this delivery is disabled; enable it first.', { code: 'endpoint_disabled' });
      }
      const updated = await repository.scheduleNow(principal.team_id, row.id);
      if (!updated) throw new NotFoundError(`No webhook delivery with id "${id}".`);
      return serializeDelivery(updated);
    },
  };
}

export type DeliveriesService = ReturnType<typeof createDeliveriesService>;
