import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { writeEvent } from '@firewatch/events';
import { serialize } from '@firewatch/resource-kit';
import { ATTEMPTS, DELIVERIES, endpointEventData, webhooksEndpoints } from '@firewatch/webhooks/shared';
import type { ClaimedDelivery, DispatchRepository, JobOutcome } from '../domain/dispatch.types.js';

const ENDPOINTS = 'webhooks_endpoints';

/**
 * The dispatcher's SQL. Claims lease due deliveries (`FOR UPDATE SKIP LOCKED`, so
 * replicas never take the same row) of enabled endpoints that have nothing in flight
 * (so one endpoint's deliveries go out one after another, in `seq` order).
 */
export function createDispatchRepository(knex: Knex, deps: { disableAfterMs: number }): DispatchRepository {
  return {
    async claim(limit, leaseMs) {
      const token = randomUUID();
      const { rows } = await knex.raw(
        `UPDATE ${DELIVERIES} d
            SET leased_until = now() + make_interval(secs => ?), lease_token = ?
           FROM ${ENDPOINTS} e
          WHERE e.id = d.endpoint_id AND d.id IN (
            SELECT c.id FROM ${DELIVERIES} c
              JOIN ${ENDPOINTS} ce ON ce.id = c.endpoint_id AND ce.enabled
             WHERE c.next_attempt_at <= now()
               AND (c.leased_until IS NULL OR c.leased_until < now())
               AND NOT EXISTS (SELECT 1 FROM ${DELIVERIES} b
                                WHERE b.endpoint_id = c.endpoint_id AND b.leased_until > now() AND b.next_attempt_at IS NOT NULL)
             ORDER BY c.seq
             LIMIT ?
             FOR UPDATE OF c SKIP LOCKED)
        RETURNING d.id, d.seq, d.team_id, d.endpoint_id, d.payload, d.attempt_count, d.failures, d.next_trigger, d.lease_token,
                  e.url, e.secret_ciphertext, e.custom_headers`,
        [leaseMs / 1000, token, limit],
      );
      return (rows as ClaimedDelivery[]).map((r) => ({ ...r, seq: Number(r.seq) })).sort((a, b) => a.seq - b.seq);
    },

    async record(outcome: JobOutcome) {
      await knex.transaction(async (trx) => {
        if (outcome.attempts.length) await trx(ATTEMPTS).insert(outcome.attempts);
        if (outcome.updates.length) {
          await trx.raw(
            `UPDATE ${DELIVERIES} d SET status = v.status, next_attempt_at = v.next_attempt_at, delivered_at = COALESCE(v.delivered_at, d.delivered_at),
                    failures = v.failures, attempt_count = d.attempt_count + 1, last_status_code = v.last_status_code,
                    last_error = v.last_error, next_trigger = 'scheduled', leased_until = NULL, lease_token = NULL, updated_at = now()
               FROM jsonb_to_recordset(?::jsonb) AS v(id uuid, lease_token uuid, status text, next_attempt_at timestamptz,
                    delivered_at timestamptz, failures int, last_status_code int, last_error text)
              WHERE d.id = v.id AND d.lease_token = v.lease_token`,
            [JSON.stringify(outcome.updates)],
          );
        }
        if (outcome.released.length) {
          await trx(DELIVERIES)
            .whereIn(
              'id',
              outcome.released.map((r) => r.id),
            )
            .whereIn(
              'lease_token',
              outcome.released.map((r) => r.lease_token),
            )
            .update({ leased_until: null, lease_token: null });
        }
        const e = outcome.endpoint;
        if (e.lastSucceeded === true) {
          await trx(ENDPOINTS).where({ id: e.id }).whereNotNull('failing_since').update({ failing_since: null });
        } else if (e.lastSucceeded === false) {
          const [row] = await trx(ENDPOINTS)
            .where({ id: e.id })
            .update({ failing_since: trx.raw('COALESCE(failing_since, ?)', [e.firstFailureAt]) })
            .returning(['failing_since']);
          const failingFor = row ? Date.now() - new Date(row.failing_since).getTime() : 0;
          if (e.gone) await disable(trx, e.id, 'the receiver answered 410 Gone');
          else if (row && failingFor >= deps.disableAfterMs)
            await disable(trx, e.id, `every attempt failed since ${new Date(row.failing_since).toISOString()}`);
        }
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
