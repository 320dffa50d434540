import type { Knex } from 'knex';
import { OUTBOX_TABLE } from './outbox.migration.js';
import type { OutboxRow } from './outbox.publisher.js';

// One advisory lock per database (each service has its own): the replica holding it drains.
const ORDER_LOCK = 'firewatch.outbox.relay';
/** Longest a refused row waits before its next try. */
const MAX_DEFER_SECONDS = 3600;

/**
 * Takes the relay's turn when `ordered`: a transaction-scoped advisory lock that other
 * replicas fail to get (they skip, the holder loops while batches are full).
 */
export async function takeRelayTurn(trx: Knex.Transaction): Promise<boolean> {
  const { rows } = await trx.raw('SELECT pg_try_advisory_xact_lock(hashtext(?)) AS locked', [ORDER_LOCK]);
  return rows[0].locked === true;
}

/** Locks up to `limit` due rows in `seq` order, skipping rows another transaction holds. */
export function claimRows(trx: Knex.Transaction, limit: number): Promise<OutboxRow[]> {
  return trx(OUTBOX_TABLE)
    .select('seq', 'id', 'type', 'team_id', 'payload')
    .where('available_at', '<=', trx.fn.now())
    .orderBy('seq')
    .limit(limit)
    .forUpdate()
    .skipLocked();
}

export async function deleteRows(trx: Knex.Transaction, rows: OutboxRow[]): Promise<void> {
  if (rows.length)
    await trx(OUTBOX_TABLE)
      .whereIn(
        'seq',
        rows.map((r) => r.seq),
      )
      .delete();
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
