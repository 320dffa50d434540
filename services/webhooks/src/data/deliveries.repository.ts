import type { Knex } from 'knex';
import { pageWithTotal } from '@firewatch/db';

export const DELIVERIES = 'webhooks_deliveries';
export const ATTEMPTS = 'webhooks_delivery_attempts';

export type DeliveryRow = Record<string, unknown> & { id: string; endpoint_id: string; team_id: number };
export type AttemptRow = Record<string, unknown> & { id: string; delivery_id: string };

export interface DeliveryListQuery {
  page: { number: number; size: number };
  status?: string[];
  direction: 'asc' | 'desc';
}

/** The API's reads and writes of deliveries; every query is bound to a team. */
export interface DeliveriesRepository {
  listByEndpoint(teamId: number, endpointId: string, query: DeliveryListQuery): Promise<{ rows: DeliveryRow[]; total: number }>;
  find(teamId: number, id: string): Promise<DeliveryRow | undefined>;
  attempts(deliveryIds: string[], page?: { number: number; size: number }): Promise<{ rows: AttemptRow[]; total: number }>;
  /** At most the `perDelivery` latest attempts of each delivery, oldest first within each. */
  latestAttempts(deliveryIds: string[], perDelivery: number): Promise<AttemptRow[]>;
  /** Makes the delivery due now on a fresh retry ladder, marked as a manual attempt. */
  scheduleNow(teamId: number, id: string): Promise<DeliveryRow | undefined>;
  endpointEnabled(teamId: number, endpointId: string): Promise<boolean>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createDeliveriesRepository(knex: Knex): DeliveriesRepository {
  return {
    async listByEndpoint(teamId, endpointId, query) {
      const q = knex(DELIVERIES).where({ team_id: teamId, endpoint_id: endpointId });
      if (query.status) q.whereIn('status', query.status);
      q.orderBy([
        { column: 'created_at', order: query.direction },
        { column: 'seq', order: query.direction },
      ]);
      return pageWithTotal<DeliveryRow>(knex, q, DELIVERIES, query.page);
    },
    async find(teamId, id) {
      if (!UUID.test(id)) return undefined;
      return (await knex(DELIVERIES).where({ team_id: teamId, id: id.toLowerCase() }).first()) as DeliveryRow | undefined;
    },
    async attempts(deliveryIds, page) {
      if (!deliveryIds.length) return { rows: [], total: 0 };
      const q = knex(ATTEMPTS).whereIn('delivery_id', deliveryIds);
      const rows = (await q
        .clone()
        .select(`${ATTEMPTS}.*`, knex.raw('count(*) over() as __total'))
        .orderBy([{ column: 'delivery_id' }, { column: 'attempt_number' }])
        .modify((b) => {
          if (page) b.limit(page.size).offset((page.number - 1) * page.size);
        })) as (AttemptRow & { __total?: string })[];
      const total = rows.length ? Number(rows[0].__total) : 0;
      for (const r of rows) delete r.__total;
      return { rows, total };
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
    async scheduleNow(teamId, id) {
      if (!UUID.test(id)) return undefined;
      const [row] = await knex(DELIVERIES)
        .where({ team_id: teamId, id: id.toLowerCase() })
        .update({ status: 'pending', next_attempt_at: knex.fn.now(), failures: 0, next_trigger: 'manual', updated_at: knex.fn.now() })
        .returning('*');
      return row as DeliveryRow | undefined;
    },
    async endpointEnabled(teamId, endpointId) {
      const row = await knex('webhooks_endpoints').where({ team_id: teamId, id: endpointId }).first('enabled');
      return Boolean(row?.enabled);
    },
  };
}
