import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { writeEvent } from '@firewatch/events';
import { serialize } from '@firewatch/resource-kit';
import { ATTEMPTS, DELIVERIES, endpointEventData, webhooksEndpoints } from '@firewatch/webhooks/shared';
import type { ClaimedDelivery, DispatchRepository, JobOutcome } from '../domain/dispatch.types.js';

const ENDPOINTS = 'webhooks_endpoints';

/**
 * A job's outcome as one statement: its attempts inserted, its deliveries moved on
 * (only while the job still holds their lease), the untried ones released, and, after a
 * success, the endpoint's failure streak ended. Each part is a data-modifying `WITH` on
 * different rows, run to completion by PostgreSQL whether or not its result is read.
 */
function recordStatement(outcome: JobOutcome, recovered: boolean): string {
  const parts: string[] = [];
  if (outcome.attempts.length)
    parts.push(`a AS (INSERT INTO ${ATTEMPTS} (delivery_id, attempt_number, trigger, url, status_code, duration_ms, response_body, error)
      SELECT v.delivery_id, v.attempt_number, v.trigger, v.url, v.status_code, v.duration_ms, v.response_body, v.error
        FROM jsonb_to_recordset(?::jsonb) AS v(delivery_id uuid, attempt_number int, trigger text, url text,
             status_code int, duration_ms int, response_body text, error text))`);
  if (outcome.updates.length)
    parts.push(`u AS (UPDATE ${DELIVERIES} d SET status = v.status, next_attempt_at = v.next_attempt_at, delivered_at = COALESCE(v.delivered_at, d.delivered_at),
          failures = v.failures, attempt_count = d.attempt_count + 1, last_status_code = v.last_status_code,
          last_error = v.last_error, next_trigger = 'scheduled', leased_until = NULL, lease_token = NULL, updated_at = now()
     FROM jsonb_to_recordset(?::jsonb) AS v(id uuid, lease_token uuid, status text, next_attempt_at timestamptz,
          delivered_at timestamptz, failures int, last_status_code int, last_error text)
    WHERE d.id = v.id AND d.lease_token = v.lease_token)`);
  if (outcome.released.length)
    parts.push(`r AS (UPDATE ${DELIVERIES} d SET leased_until = NULL, lease_token = NULL
     FROM jsonb_to_recordset(?::jsonb) AS v(id uuid, lease_token uuid)
    WHERE d.id = v.id AND d.lease_token = v.lease_token)`);
  if (recovered) parts.push(`e AS (UPDATE ${ENDPOINTS} SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL)`);
  return parts.length ? `WITH ${parts.join(',\n')} SELECT 1` : 'SELECT 1';
}

/** The bindings of {@link recordStatement}, in its order. */
function recordBindings(outcome: JobOutcome): string[] {
  const bindings: string[] = [];
  if (outcome.attempts.length) bindings.push(JSON.stringify(outcome.attempts));
  if (outcome.updates.length) bindings.push(JSON.stringify(outcome.updates));
  if (outcome.released.length) bindings.push(JSON.stringify(outcome.released));
  if (outcome.endpoint.lastSucceeded === true) bindings.push(outcome.endpoint.id);
  return bindings;
}

/**
 * The dispatcher's SQL. Claims lease due deliveries (`FOR UPDATE SKIP LOCKED`, so
 * replicas never take the same row) of enabled endpoints that have nothing in flight
 * (so one endpoint's deliveries go out one after another, in `seq` order); replicas'
 * claims take turns, so none misses another's leases.
 */
export function createDispatchRepository(knex: Knex, deps: { disableAfterMs: number }): DispatchRepository {
  return {
    async claim(limit, leaseMs) {
      // Replicas claim in turn, in one statement that answers only the ids
      // (webhooks_claim_deliveries, services/webhooks migrations: why a function, the turn,
      // and why ids); the rows are read once the turn is over.
      const token = randomUUID();
      const { rows: claimed } = await knex.raw('SELECT webhooks_claim_deliveries(?, ?, ?) AS id', [limit, leaseMs / 1000, token]);
      if (!claimed.length) return [];
      const { rows } = await knex.raw(
        `SELECT d.id, d.seq, d.team_id, d.endpoint_id, d.payload, d.attempt_count, d.failures, d.next_trigger, d.lease_token,
                e.url, e.secret_ciphertext, e.custom_headers
           FROM ${DELIVERIES} d JOIN ${ENDPOINTS} e ON e.id = d.endpoint_id
          WHERE d.id = ANY(?::uuid[]) AND d.lease_token = ?`,
        [(claimed as { id: string }[]).map((r) => r.id), token],
      );
      return (rows as ClaimedDelivery[]).map((r) => ({ ...r, seq: Number(r.seq) })).sort((a, b) => a.seq - b.seq);
    },

    async record(outcome: JobOutcome) {
      const e = outcome.endpoint;
      // A job without a failure (nearly every one) is one statement, atomic on its own:
      // its attempts, deliveries, releases and the endpoint's recovery together.
      if (e.lastSucceeded !== false) {
        await knex.raw(recordStatement(outcome, e.lastSucceeded === true), recordBindings(outcome));
        return;
      }
      await knex.transaction(async (trx) => {
        await trx.raw(recordStatement(outcome, false), recordBindings(outcome));
        const [row] = await trx(ENDPOINTS)
          .where({ id: e.id })
          .update({ failing_since: trx.raw('COALESCE(failing_since, ?)', [e.firstFailureAt]) })
          .returning(['failing_since']);
        const failingFor = row ? Date.now() - new Date(row.failing_since).getTime() : 0;
        if (e.gone) await disable(trx, e.id, 'the receiver answered 410 Gone');
        else if (row && failingFor >= deps.disableAfterMs)
          await disable(trx, e.id, `every attempt failed since ${new Date(row.failing_since).toISOString()}`);
      });
    },
  };

  async function disable(trx: Knex.Transaction, id: string, reason: string): Promise<void> {
    const [row] = await trx(ENDPOINTS)
      .where({ id, enabled: true })
      .update({ enabled: false, disabled_reason: reason, updated_at: trx.fn.now() })
      .returning('*');
    if (row)
      await writeEvent(trx, {
        type: 'webhooks_endpoint.updated',
        team_id: row.team_id,
        data: endpointEventData(serialize(webhooksEndpoints, row)),
      });
  }
}
