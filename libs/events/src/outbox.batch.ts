import type { Knex } from 'knex';
import type { Logger } from '@firewatch/logger';
import type { TransportPublisher } from './event-transport.js';
import { tracePublish } from './outbox.tracing.js';
import { pipelinedTransaction } from './pipelined-transaction.js';
import { deferRow, noteFailure, restoreRows, takeRows } from './outbox.repository.js';

/** What one batch needs from the relay. */
export interface BatchContext {
  knex: Knex;
  logger: Logger;
  batchSize: number;
  ordered: boolean;
}

/** How a batch went: rows claimed, rows confirmed, and the errors worth reporting. */
export interface BatchResult {
  claimed: number;
  published: number;
  /** Set when the transport failed; the rows stay due. */
  failure?: Error;
  /** The first per-row refusal, if any (those rows were deferred). */
  rowError?: string;
}

/**
 * One claim → publish → settle cycle in a single transaction: the claimed rows are taken
 * out of the outbox (deleted in the transaction, so their locks are held until the
 * transport answered and no other replica publishes them meanwhile); confirmed ones stay
 * deleted, refused ones are put back deferred, ones caught in a broker failure put back
 * due with the error noted. A crash before the commit leaves every row in place.
 */
export function relayBatch(publisher: TransportPublisher, ctx: BatchContext): Promise<BatchResult> {
  // BEGIN goes with the claim: a batch is two round trips besides the broker's.
  return pipelinedTransaction(ctx.knex, async (trx) => {
    const rows = await takeRows(trx, ctx.batchSize, ctx.ordered);
    if (!rows.length) return { claimed: 0, published: 0 };
    // As stored: tracing gives the published payloads a traceparent of their own.
    const stored = new Map(rows.map((r) => [r.seq, { ...r }]));
    const traced = tracePublish(rows);
    const out = await publisher.publish(rows);
    traced(out);
    // Every row the transport did not confirm goes back: none is lost whatever it answered.
    const confirmed = new Set(out.confirmed.map((r) => r.seq));
    await restoreRows(
      trx,
      [...stored.values()].filter((r) => !confirmed.has(r.seq)),
    );
    for (const { row, error } of out.poisoned) {
      ctx.logger.error('outbox row refused, deferring it', { event_id: row.id, type: row.type, error });
      await deferRow(trx, row, error);
    }
    if (out.failure) {
      await noteFailure(trx, out.unsent, out.failure.message);
      ctx.logger.warn('outbox batch not fully sent', {
        error: out.failure.message,
        confirmed: out.confirmed.length,
        unsent: out.unsent.length,
      });
    }
    return { claimed: rows.length, published: out.confirmed.length, failure: out.failure, rowError: out.poisoned[0]?.error };
  });
}
