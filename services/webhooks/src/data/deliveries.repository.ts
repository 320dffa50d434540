import type { Knex } from 'knex';
import { listPage } from '@firewatch/db';
import type { AttemptRow, DeliveriesRepository, DeliveryRow } from '../domain/deliveries/deliveries.store.js';

export const DELIVERIES = 'webhooks_deliveries';
export const ATTEMPTS = 'webhooks_delivery_attempts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createDeliveriesRepository(knex: Knex): DeliveriesRepository {
  return {
    async listByEndpoint(teamId, endpointId, query) {
      const q = knex(DELIVERIES).where({ team_id: teamId, endpoint_id: endpointId });
      if (query.status) q.whereIn('status', query.status);
      // seq breaks ties of created_at (one transaction's deliveries share it), in intake order.
      const order = [
        { column: 'created_at', direction: query.direction },
        { column: 'seq', direction: query.direction },
      ];
      const binding = [teamId, endpointId, [...(query.status ?? [])].sort()];
      return listPage<DeliveryRow>(knex, q, { table: DELIVERIES, order, page: query.page, binding });
    },
    async find(teamId, id) {
      if (!UUID.test(id)) return undefined;
      return (await knex(DELIVERIES).where({ team_id: teamId, id: id.toLowerCase() }).first()) as DeliveryRow | undefined;
    },
    async attempts(deliveryId, page) {
      // The caller has found the delivery in its team; the cursor is bound to the delivery.
      const q = knex(ATTEMPTS).where('delivery_id', deliveryId);
      const order = [
        { column: 'attempt_number', direction: 'asc' as const },
        { column: 'id', direction: 'asc' as const },
      ];
      return listPage<AttemptRow>(knex, q, { table: ATTEMPTS, order, page, binding: [deliveryId] });
    },
    async latestAttempts(deliveryIds, perDelivery) {
      if (!deliveryIds.length) return [];
      const ranked = knex(ATTEMPTS)
        .whereIn('delivery_id', deliveryIds)
        .select(`${ATTEMPTS}.*`, knex.raw('row_number() over (partition by delivery_id order by attempt_number desc) as __rank'));
      const rows = (await knex
        .from(ranked.as('ranked'))
        .where('__rank', '<=', perDelivery)
        .orderBy([{ column: 'delivery_id' }, { column: 'attempt_number' }])) as (AttemptRow & { __rank?: string })[];
      for (const r of rows) delete r.__rank;
      return rows;
    },
    async scheduleNow(teamId, id, precondition) {
      if (!UUID.test(id)) return undefined;
      return knex.transaction(async (tx) => {
        const where = { team_id: teamId, id: id.toLowerCase() };
        const current = (await tx(DELIVERIES).where(where).first().forUpdate()) as DeliveryRow | undefined;
        if (!current) return undefined;
        precondition?.(current);
        const [row] = await tx(DELIVERIES)
          .where(where)
          .update({ status: 'pending', next_attempt_at: knex.fn.now(), failures: 0, next_trigger: 'manual', updated_at: knex.fn.now() })
          .returning('*');
        return row as DeliveryRow | undefined;
      });
    },
    async endpointEnabled(teamId, endpointId) {
      const row = await knex('webhooks_endpoints').where({ team_id: teamId, id: endpointId }).first('enabled');
      return Boolean(row?.enabled);
    },
  };
}
