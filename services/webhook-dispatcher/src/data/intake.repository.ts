import type { Knex } from 'knex';
import { DELIVERIES, deliveryPayload, subscribes } from '@firewatch/webhooks/shared';
import type { IntakeEvent, IntakeRepository } from '../domain/dispatch.types.js';

const CHUNK = 1000;

/** The new deliveries, a column at a time (one array binding each). */
interface Columns {
  team_id: number[];
  endpoint_id: string[];
  event_id: string[];
  event_type: string[];
  payload: string[];
}

/**
 * Turns events into deliveries: one per enabled endpoint of the event's team that
 * subscribes to its type, rows inserted in event order (so `seq` follows the order the
 * broker handed the events over). The body is serialised once per event and shared by
 * its deliveries. `(endpoint_id, event_id)` is unique, so a redelivered event adds nothing.
 */
export function createIntakeRepository(knex: Knex): IntakeRepository {
  return {
    async store(events: IntakeEvent[]) {
      if (!events.length) return { count: 0, endpointIds: [] };
      const teams = [...new Set(events.map((e) => e.team_id))];
      // Raw SQL with a binding per column: knex built the many-row insert value by value
      // on every batch.
      const { rows: endpoints } = (await knex.raw(
        `SELECT id, team_id, event_types FROM webhooks_endpoints WHERE team_id = ANY(?::int[]) AND enabled ORDER BY created_at`,
        [teams],
      )) as { rows: { id: string; team_id: number; event_types: string[] }[] };
      const rows: Columns = { team_id: [], endpoint_id: [], event_id: [], event_type: [], payload: [] };
      for (const event of events) {
        let payload: string | undefined;
        for (const endpoint of endpoints) {
          if (endpoint.team_id !== event.team_id || !subscribes(endpoint.event_types, event.type)) continue;
          payload ??= deliveryPayload(event);
          rows.team_id.push(event.team_id);
          rows.endpoint_id.push(endpoint.id);
          rows.event_id.push(event.id);
          rows.event_type.push(event.type);
          rows.payload.push(payload);
        }
      }
      let count = 0;
      const endpointIds = new Set<string>();
      for (let i = 0; i < rows.team_id.length; i += CHUNK) {
        const slice = <T>(column: T[]) => column.slice(i, i + CHUNK);
        // Rows in array order (ORDINALITY), so `seq` follows the events' order as before.
        const { rows: inserted } = (await knex.raw(
          `INSERT INTO ${DELIVERIES} (team_id, endpoint_id, event_id, event_type, payload, next_attempt_at)
           SELECT v.team_id, v.endpoint_id, v.event_id, v.event_type, v.payload, now()
             FROM unnest(?::int[], ?::uuid[], ?::uuid[], ?::text[], ?::text[]) WITH ORDINALITY
                  AS v(team_id, endpoint_id, event_id, event_type, payload, n)
            ORDER BY v.n
           ON CONFLICT (endpoint_id, event_id) DO NOTHING
           RETURNING endpoint_id`,
          [slice(rows.team_id), slice(rows.endpoint_id), slice(rows.event_id), slice(rows.event_type), slice(rows.payload)],
        )) as { rows: { endpoint_id: string }[] };
        count += inserted.length;
        for (const r of inserted) endpointIds.add(r.endpoint_id);
      }
      return { count, endpointIds: [...endpointIds] };
    },
  };
}
