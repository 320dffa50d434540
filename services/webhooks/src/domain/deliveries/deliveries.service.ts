import { authorize, type Principal } from '@firewatch/auth';
import { ConflictError, NotFoundError } from '@firewatch/errors';
import { assertIfMatch, type EntityTagCondition, type Page } from '@firewatch/jsonapi';
import type { ResourceService } from '@firewatch/resource-kit';
import type { DeliveriesRepository, DeliveryListQuery, DeliveryRow } from './deliveries.store.js';
import { toAttemptResource, toDeliveryResource } from './deliveries.presenter.js';
import { WEBHOOKS_PERMISSION } from '../webhooks-permission.js';

/** `include=attempts` carries at most this many (the latest) per delivery; `/attempts` pages through all. */
export const INCLUDED_ATTEMPTS_MAX = 20;

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
    return (
      await repository.latestAttempts(
        rows.map((r) => r.id),
        INCLUDED_ATTEMPTS_MAX,
      )
    ).map(toAttemptResource);
  }

  return {
    async listForEndpoint(principal: Principal, endpointIdOrSlug: string, query: DeliveryListQuery, include: string[]) {
      const { record: endpoint } = await deps.endpoints.get(principal, endpointIdOrSlug);
      const { rows, ...found } = await repository.listByEndpoint(principal.team_id, endpoint.id, query);
      return { records: rows.map(toDeliveryResource), found, included: include.includes('attempts') ? await attemptsOf(rows) : [] };
    },
    async get(principal: Principal, id: string, include: string[]) {
      const row = await load(principal, id, 'read');
      return { record: toDeliveryResource(row), included: include.includes('attempts') ? await attemptsOf([row]) : [] };
    },
    async attempts(principal: Principal, id: string, page: Page) {
      const row = await load(principal, id, 'read');
      const { rows, ...found } = await repository.attempts(row.id, page);
      return { records: rows.map(toAttemptResource), found };
    },
    /**
     * Sends the delivery again now (the dispatcher picks it up within its poll interval), with the same webhook-id.
     * `ifMatch` (a request's If-Match) is judged on the locked row, as a GET answers it: a stale tag is a 412.
     */
    async redeliver(principal: Principal, id: string, ifMatch?: EntityTagCondition) {
      const row = await load(principal, id, 'update');
      if (!(await repository.endpointEnabled(principal.team_id, row.endpoint_id))) {
        throw new ConflictError('The endpoint of this delivery is disabled; enable it first.', { code: 'endpoint_disabled' });
      }
      const updated = await repository.scheduleNow(principal.team_id, row.id, (current) =>
        assertIfMatch(ifMatch, { data: toDeliveryResource(current) }),
      );
      if (!updated) throw new NotFoundError(`No webhook delivery with id "${id}".`);
      return toDeliveryResource(updated);
    },
  };
}

export type DeliveriesService = ReturnType<typeof createDeliveriesService>;
