import type { Knex } from 'knex';

/**
 * The dispatcher's claim as one statement that takes the replicas' turn first
 * (docs/webhooks.md, "Order, where possible"). The claim's check that an endpoint has
 * nothing in flight reads a snapshot: two claims at once would both see no lease, and
 * SKIP LOCKED would split one endpoint's deliveries between them. A plain statement reads
 * with the snapshot it started with, before the lock was granted; in a volatile PL/pgSQL
 * function each query takes its own (READ COMMITTED), so the claim after the lock sees
 * every earlier claim's leases. One statement, so no client holds the turn between round
 * trips (a stalled replica would stop every other's claims). The claim is EXECUTEd, so it
 * is planned on every call for the table as it is: a cached plan made while the table was
 * small (a sequential scan, a hash join) would be kept as it grows. Its lease counts from
 * when the turn was granted (`clock_timestamp()`), not from the statement's start: a wait
 * for the turn must not shorten it. It answers the claimed ids only, so the statement (and
 * the turn) ends as soon as they are sent: a full batch's payloads could fill the socket of
 * a replica that stopped reading, and keep the turn while PostgreSQL waits to write them;
 * the dispatcher reads the rows by id afterwards. The lock is libs/db's two-key kind
 * (`lockForTransaction`): no single-key lock of this database (the outbox relay's, the
 * migrations', the resource kit's) can be it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION webhooks_claim_deliveries(p_limit integer, p_lease_seconds double precision, p_token uuid)
    RETURNS SETOF uuid LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('webhooks_deliveries.claim'), 0);
      RETURN QUERY EXECUTE $claim$
        UPDATE webhooks_deliveries d
           SET leased_until = clock_timestamp() + make_interval(secs => $2), lease_token = $3
         WHERE d.id IN (
           SELECT c.id FROM webhooks_deliveries c
             JOIN webhooks_endpoints ce ON ce.id = c.endpoint_id AND ce.enabled
            WHERE c.next_attempt_at <= now()
              AND (c.leased_until IS NULL OR c.leased_until < now())
              AND NOT EXISTS (SELECT 1 FROM webhooks_deliveries b
                               WHERE b.endpoint_id = c.endpoint_id AND b.leased_until > now() AND b.next_attempt_at IS NOT NULL)
            ORDER BY c.seq
            LIMIT $1
            FOR UPDATE OF c SKIP LOCKED)
        RETURNING d.id
      $claim$ USING p_limit, p_lease_seconds, p_token;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION webhooks_claim_deliveries(integer, double precision, uuid)');
}
