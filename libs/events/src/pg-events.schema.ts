import pg from 'pg';

/** The channel the events database notifies when deliveries are due. */
export const PG_EVENTS_CHANNEL = 'firewatch_events';

/**
 * The events database of the PostgreSQL transport: one row per (consumer queue, event) in
 * `events.deliveries`, written by `events.publish` for every queue whose topic patterns
 * match the type, taken by `events.claim` under a lease, deleted by `events.ack`. Service
 * roles get no table rights, only these functions (SECURITY DEFINER): publish records
 * `session_user` as the publisher, which no caller can forge, and the consumer functions
 * serve only the role a queue was declared for. Idempotent.
 */
const SCHEMA_SQL = String.raw`
CREATE SCHEMA IF NOT EXISTS events;
REVOKE ALL ON SCHEMA events FROM PUBLIC;
CREATE TABLE IF NOT EXISTS events.queues (
  name text PRIMARY KEY,
  patterns text[] NOT NULL,
  consumer text NOT NULL
);
CREATE TABLE IF NOT EXISTS events.deliveries (
  seq bigserial PRIMARY KEY,
  queue text NOT NULL REFERENCES events.queues (name) ON DELETE CASCADE,
  event_id uuid NOT NULL,
  type text NOT NULL,
  publisher text NOT NULL,
  envelope jsonb NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  available_at timestamptz NOT NULL DEFAULT now(),
  dead_at timestamptz,
  last_error text
);
CREATE INDEX IF NOT EXISTS deliveries_due ON events.deliveries (queue, available_at, seq) WHERE dead_at IS NULL;

CREATE OR REPLACE FUNCTION events.publish(envelopes jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = events, pg_temp AS $$
DECLARE n integer;
BEGIN
  INSERT INTO events.deliveries (queue, event_id, type, publisher, envelope)
  SELECT q.name, (e.body->>'id')::uuid, e.body->>'type', session_user, e.body
  FROM jsonb_array_elements(envelopes) WITH ORDINALITY AS e(body, ord)
  JOIN events.queues q ON (e.body->>'type') ~ ANY (q.patterns)
  ORDER BY e.ord, q.name;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n > 0 THEN PERFORM pg_notify('${PG_EVENTS_CHANNEL}', ''); END IF;
  RETURN n;
END $$;

CREATE OR REPLACE FUNCTION events.own(q text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = events, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM events.queues WHERE name = q) THEN
    RAISE EXCEPTION 'queue "%" does not exist: provision the events database', q USING ERRCODE = 'undefined_object';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM events.queues WHERE name = q AND consumer = session_user)
     AND NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = session_user AND rolsuper) THEN
    RAISE EXCEPTION 'queue "%" is not the queue of role %', q, session_user USING ERRCODE = 'insufficient_privilege';
  END IF;
END $$;

CREATE OR REPLACE FUNCTION events.claim(q text, n integer, lease_ms integer, delivery_limit integer)
RETURNS TABLE (delivery bigint, sender text, body jsonb, tries integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = events, pg_temp AS $$
BEGIN
  PERFORM events.own(q);
  UPDATE events.deliveries d SET dead_at = now(), last_error = 'delivery limit reached'
  WHERE d.queue = q AND d.dead_at IS NULL AND d.available_at <= now() AND d.attempts >= delivery_limit;
  RETURN QUERY
  UPDATE events.deliveries d SET attempts = d.attempts + 1, available_at = now() + lease_ms * interval '1 millisecond'
  WHERE d.seq IN (
    SELECT x.seq FROM events.deliveries x
    WHERE x.queue = q AND x.dead_at IS NULL AND x.available_at <= now()
    ORDER BY x.seq LIMIT n FOR UPDATE SKIP LOCKED)
  RETURNING d.seq, d.publisher, d.envelope, d.attempts;
END $$;

CREATE OR REPLACE FUNCTION events.ack(q text, seqs bigint[]) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = events, pg_temp AS $$
BEGIN
  PERFORM events.own(q);
  DELETE FROM events.deliveries WHERE queue = q AND seq = ANY (seqs);
END $$;

CREATE OR REPLACE FUNCTION events.retry(q text, s bigint, delay_ms integer, error text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = events, pg_temp AS $$
BEGIN
  PERFORM events.own(q);
  UPDATE events.deliveries SET available_at = now() + delay_ms * interval '1 millisecond', last_error = left(error, 1000)
  WHERE queue = q AND seq = s;
END $$;

CREATE OR REPLACE FUNCTION events.bury(q text, s bigint, error text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = events, pg_temp AS $$
BEGIN
  PERFORM events.own(q);
  UPDATE events.deliveries SET dead_at = now(), last_error = left(error, 1000) WHERE queue = q AND seq = s;
END $$;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA events FROM PUBLIC;
`;

/** A topic binding (`user.*`, `#`) as the regular expression `events.publish` matches types with. */
export function topicPattern(binding: string): string {
  const words = binding.split('.').map((w) => (w === '*' ? '[^.]+' : w === '#' ? '.*' : w.replace(/[^a-z0-9_]/gi, (c) => `\\${c}`)));
  return `^${words.join('\\.')}$`;
}

/** A consumer's queue in the events database: its topic bindings and the role that takes from it. */
export interface PgEventQueue {
  queue: string;
  bindings: readonly string[];
  role: string;
}

/** What {@link provisionPgEvents} sets up. */
export interface PgEventsProvisioning {
  /** The events database's name, e.g. `firewatch_events`. */
  database: string;
  /** Every service role that may connect, publish and consume (roles made by service provisioning). */
  roles: readonly string[];
  queues: readonly PgEventQueue[];
}

/**
 * Creates the events database, its schema and functions, declares the consumers' queues
 * and lets the service roles connect and call the functions. Idempotent; needs an
 * administrator that may create databases and functions.
 */
export async function provisionPgEvents(adminUrl: string, spec: PgEventsProvisioning): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(spec.database)) throw new Error(`unusual events database name "${spec.database}"`);
  const url = new URL(adminUrl);
  url.pathname = '/postgres';
  const server = new pg.Client({ connectionString: url.toString() });
  await server.connect();
  try {
    const { rowCount } = await server.query('SELECT 1 FROM pg_database WHERE datname = $1', [spec.database]);
    // 42P04: another provisioning created it meanwhile.
    if (!rowCount)
      await server
        .query(`CREATE DATABASE ${spec.database}`)
        .catch((err) => ((err as { code?: string }).code === '42P04' ? undefined : Promise.reject(err)));
  } finally {
    await server.end();
  }
  url.pathname = `/${spec.database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    // One provisioning at a time: CREATE OR REPLACE FUNCTION races itself.
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['firewatch.events.provision']);
    await client.query(SCHEMA_SQL);
    for (const q of spec.queues) await declarePgEventQueue(client, q);
    for (const role of spec.roles) {
      const r = client.escapeIdentifier(role);
      await client.query(`GRANT CONNECT ON DATABASE ${client.escapeIdentifier(spec.database)} TO ${r}`);
      await client.query(`GRANT USAGE ON SCHEMA events TO ${r}`);
      await client.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA events TO ${r}`);
    }
  } finally {
    await client.end();
  }
}

/** Declares (or re-binds) one consumer's queue. */
export async function declarePgEventQueue(client: pg.ClientBase, q: PgEventQueue): Promise<void> {
  await client.query(
    `INSERT INTO events.queues (name, patterns, consumer) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET patterns = EXCLUDED.patterns, consumer = EXCLUDED.consumer`,
    [q.queue, q.bindings.map(topicPattern), q.role],
  );
}
