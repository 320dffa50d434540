import type { Knex } from 'knex';
import { DELIVERIES, deliveryPayload, subscribes } from '@firewatch/webhooks/shared';
import type { IntakeEvent, IntakeRepository } from '../domain/dispatch.types.js';

const CHUNK = 1000;

/**
 * Turns events into deliveries: one per enabled endpoint of the event's team that
 * subscribes to its type, rows inserted in event order (so `seq` follows the order the
 * broker handed the events over). The body is serialised once per event and shared by
 * its deliveries. `(endpoint_id, event_id)` is unique, so a redelivered event adds nothing.
 */
export function createIntakeRepository(knex: Knex): IntakeRepository {
  return {
    async store(events: IntakeEvent[]) {
      if (!events.length) return 0;
      const teams = [...new Set(events.map((e) => e.team_id))];
      const endpoints = (await knex('webhooks_endpoints')
        .whereIn('team_id', teams)
        .where('enabled', true)
        .orderBy('created_at')
        .select('id', 'team_id', 'event_types')) as { id: string; team_id: number; event_types: string[] }[];
      const rows: Record<string, unknown>[] = [];
      for (const event of events) {
        let payload: string | undefined;
        for (const endpoint of endpoints) {
          if (endpoint.team_id !== event.team_id || !subscribes(endpoint.event_types, event.type)) continue;
          payload ??= deliveryPayload(event);
          rows.push({
            team_id: event.team_id,
            endpoint_id: endpoint.id,
            event_id: event.id,
            event_type: event.type,
            payload,
            next_attempt_at: knex.fn.now(),
          });
        }
      }
      let inserted = 0;
      for (let i = 0; i < rows.length; i += CHUNK) {
        const ids = await knex(DELIVERIES)
          .insert(rows.slice(i, i + CHUNK))
          .onConflict(['endpoint_id', 'event_id'])
          .ignore()
          .returning('id');
        inserted += ids.length;
      }
      return inserted;
    },
  };
}
