import pg from 'pg';
import type { TransportPublisher, TransportPublisherHooks } from './event-transport.js';
import { outboxEnvelope, type BatchOutcome, type OutboxRow } from './outbox.publisher.js';
import { createReconnectLoop } from './reconnect-loop.js';

/** Options of {@link createPgEventsPublisher}. */
export interface PgEventsPublisherOptions extends TransportPublisherHooks {
  /** The events database, as the service's own role (its publisher identity). */
  eventsDatabaseUrl: string;
}

// Data exceptions (22) and integrity violations (23) belong to a row; anything else to the connection.
const isRowFault = (err: unknown) => /^2[23]/.test((err as { code?: string }).code ?? '');

/**
 * Publishes outbox rows into the events database through `events.publish`, one call per
 * batch (one transaction: all or nothing). When a batch fails for a row's sake, the rows
 * are tried one by one, so only the faulty row is deferred. Any other failure marks the
 * publisher down; it checks the database with back-off until it answers again.
 */
export function createPgEventsPublisher(opts: PgEventsPublisherOptions): TransportPublisher {
  const { logger } = opts;
  const pool = new pg.Pool({ connectionString: opts.eventsDatabaseUrl, max: 1, application_name: opts.name });
  pool.on('error', (err) => logger.warn('events database connection lost', { error: err.message }));
  let connected = false;
  let closed = false;

  async function tryOnce(): Promise<boolean> {
    try {
      await pool.query('SELECT 1');
    } catch (err) {
      logger.warn('events database not reachable', { error: (err as Error).message });
      return closed;
    }
    if (closed) return true;
    connected = true;
    opts.onReady();
    return true;
  }
  const loop = createReconnectLoop(tryOnce, { initialMs: 500, maxMs: 30_000 });

  const publishOne = (rows: OutboxRow[]) =>
    pool.query('SELECT events.publish($1::jsonb)', [JSON.stringify(rows.map((r) => outboxEnvelope(r.payload)))]);

  async function oneByOne(rows: OutboxRow[]): Promise<BatchOutcome> {
    const outcome: BatchOutcome = { confirmed: [], poisoned: [], unsent: [] };
    for (let i = 0; i < rows.length; i++) {
      try {
        await publishOne([rows[i]]);
        outcome.confirmed.push(rows[i]);
      } catch (err) {
        if (!isRowFault(err)) {
          outcome.unsent.push(...rows.slice(i));
          outcome.failure = err as Error;
          break;
        }
        outcome.poisoned.push({ row: rows[i], error: (err as Error).message });
      }
    }
    return outcome;
  }

  return {
    async start() {
      if (!(await tryOnce())) loop.schedule(true);
    },
    async close() {
      closed = true;
      connected = false;
      await loop.stop();
      await pool.end().catch(() => undefined);
    },
    get connected() {
      return connected;
    },
    blocked: false,
    async publish(rows) {
      try {
        await publishOne(rows);
        return { confirmed: rows, poisoned: [], unsent: [] };
      } catch (err) {
        if (isRowFault(err)) return oneByOne(rows);
        return { confirmed: [], poisoned: [], unsent: rows, failure: err as Error };
      }
    },
    reset(reason) {
      if (closed) return;
      logger.warn('events database publish failed, checking the connection', { error: reason.message });
      connected = false;
      loop.schedule(true);
    },
    simulateConnectionLoss() {
      connected = false;
      loop.schedule(true);
    },
  };
}
