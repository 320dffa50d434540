import type { Knex } from 'knex';
import { DELIVERIES, deliveryPayload, subscribes } from '@firewatch/webhooks/shared';
import type { IntakeEvent, IntakeRepository } from '../domain/dispatch.types.js';
import { createNamedStatements } from './named-statements.js';

// One statement: the subscribing endpoints are joined in SQL, not read first (a round trip
// a batch). That is `subscribes` (webhooks/shared) in SQL: an endpoint listing no type takes
// every type, one listing types those; the events no endpoint may take (internal types, which
// even an endpoint taking every type does not) are left out before the statement.
const STORE = `INSERT INTO ${DELIVERIES} (team_id, endpoint_id, event_id, event_type, payload, next_attempt_at)
  SELECT v.team_id, e.id, v.event_id, v.event_type, v.payload, now()
    FROM unnest(?::int[], ?::uuid[], ?::text[], ?::text[]) WITH ORDINALITY AS v(team_id, event_id, event_type, payload, n)
    JOIN webhooks_endpoints e ON e.team_id = v.team_id AND e.enabled
     AND (jsonb_array_length(e.event_types) = 0 OR e.event_types @> jsonb_build_array(v.event_type))
   ORDER BY v.n, e.created_at
  ON CONFLICT (endpoint_id, event_id) DO NOTHING
  RETURNING endpoint_id`;

/**
 * Turns events into deliveries: one per enabled endpoint of the event's team that
 * subscribes to its type, rows inserted in event order (so `seq` follows the order the
 * broker handed the events over), an event's endpoints in the order they were created.
 * The body is serialised once per event and shared by its deliveries. `(endpoint_id,
 * event_id)` is unique, so a redelivered event adds nothing.
 */
export function createIntakeRepository(knex: Knex): IntakeRepository {
  const run = createNamedStatements(knex);
  return {
    async store(events: IntakeEvent[]) {
      const team_id: number[] = [];
      const event_id: string[] = [];
      const event_type: string[] = [];
      const payload: string[] = [];
      for (const event of events) {
        if (!subscribes([], event.type)) continue;
        team_id.push(event.team_id);
        event_id.push(event.id);
        event_type.push(event.type);
        payload.push(deliveryPayload(event));
      }
      if (!team_id.length) return { count: 0, endpointIds: [] };
      // Raw SQL with a binding per column: knex built a many-row insert value by value.
      const { rows: inserted } = await run<{ rows: { endpoint_id: string }[] }>(STORE, [team_id, event_id, event_type, payload]);
      return { count: inserted.length, endpointIds: [...new Set(inserted.map((r) => r.endpoint_id))] };
    },
  };
}
