import type { Knex } from 'knex';
import { OUTBOX_TABLE } from './outbox.migration.js';
import type { OutboxRow } from './outbox.publisher.js';

// One advisory lock per database (each service has its own): the replica holding it drains.
const ORDER_LOCK = 'firewatch.outbox.relay';
/** Longest a refused row waits before its next try. */
const MAX_DEFER_SECONDS = 3600;

const take = (turn: string) => `DELETE FROM ${OUTBOX_TABLE} WHERE seq IN (
       SELECT seq FROM ${OUTBOX_TABLE} WHERE available_at <= now() ${turn} ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED)
     RETURNING seq, id, type, team_id, payload, created_at, attempts, last_error, available_at`;
const TAKE = take('');
const TAKE_ORDERED = take('AND (SELECT pg_try_advisory_xact_lock(hashtext(?)))');

/** An outbox row as stored: what `restoreRows` puts back. */
export interface StoredOutboxRow extends OutboxRow {
  created_at: Date;
  attempts: number;
  last_error: string | null;
  available_at: Date;
}

/**
 * Takes up to `limit` due rows, in `seq` order, out of the outbox in `trx`, skipping rows
 * another transaction holds: committing `trx` settles them, `restoreRows` puts back the
 * ones that must stay. When `ordered`, only with the relay's turn: a transaction-scoped
 * advisory lock other replicas fail to get (they take nothing; the holder loops while
 * batches are full). The turn, the claim and the delete are one statement, so a batch
 * the transport confirms whole costs BEGIN, this and COMMIT.
 */
export async function takeRows(trx: Knex.Transaction, limit: number, ordered: boolean): Promise<StoredOutboxRow[]> {
  // Not a prepared statement: its generic plan, taken after five runs on a small outbox,
  // reads the whole table (a hash join) with every batch once a backlog has built up.
  const { rows } = await trx.raw(ordered ? TAKE_ORDERED : TAKE, ordered ? [ORDER_LOCK, limit] : [limit]);
  // RETURNING keeps no order.
  return (rows as StoredOutboxRow[]).sort((a, b) => Number(a.seq) - Number(b.seq));
}

/** Puts rows `takeRows` took back as they were (same `seq`, so their order holds). */
export async function restoreRows(trx: Knex.Transaction, rows: readonly StoredOutboxRow[]): Promise<void> {
  if (!rows.length) return;
  await trx(OUTBOX_TABLE).insert(
    rows.map(({ seq, id, type, team_id, payload, created_at, attempts, last_error, available_at }) => ({
      seq,
      id,
      type,
      team_id,
      payload: JSON.stringify(payload),
      created_at,
      attempts,
      last_error,
      available_at,
    })),
  );
}

/** Records a failed try on rows that stay due (the failure was not theirs). */
export async function noteFailure(trx: Knex.Transaction, rows: OutboxRow[], error: string): Promise<void> {
  if (!rows.length) return;
  await trx(OUTBOX_TABLE)
    .whereIn(
      'seq',
      rows.map((r) => r.seq),
    )
    .update({ attempts: trx.raw('attempts + 1'), last_error: error.slice(0, 1000) });
}

/**
 * Pushes a refused row out of the way: `available_at` moves 2^attempts seconds ahead
 * (±20 %, capped at an hour), so later rows are published meanwhile and the row is
 * retried, never dropped.
 */
export async function deferRow(trx: Knex.Transaction, row: OutboxRow, error: string): Promise<void> {
  await trx(OUTBOX_TABLE)
    .where('seq', row.seq)
    .update({
      attempts: trx.raw('attempts + 1'),
      last_error: error.slice(0, 1000),
      available_at: trx.raw("now() + least(?::float8, power(2, attempts)) * (0.8 + random() * 0.4) * interval '1 second'", [
        MAX_DEFER_SECONDS,
      ]),
    });
}
