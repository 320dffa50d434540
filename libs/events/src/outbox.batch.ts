import type { Knex } from 'knex';
import type { Logger } from '@firewatch/logger';
import type { TransportPublisher } from './event-transport.js';
import { tracePublish } from './outbox.tracing.js';
import { claimRows, deferRow, deleteRows, noteFailure, takeRelayTurn } from './outbox.repository.js';

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
 * One claim → publish → settle cycle in a single transaction: confirmed rows are deleted,
 * refused rows deferred, rows caught in a broker failure left due with the error noted.
 * The row locks are held until the transport answered, so no other replica publishes them
 * meanwhile.
 */
export function relayBatch(publisher: TransportPublisher, ctx: BatchContext): Promise<BatchResult> {
  return ctx.knex.transaction(async (trx) => {
    if (ctx.ordered && !(await takeRelayTurn(trx))) return { claimed: 0, published: 0 };
    const rows = await claimRows(trx, ctx.batchSize);
    if (!rows.length) return { claimed: 0, published: 0 };
    const traced = tracePublish(rows);
    const out = await publisher.publish(rows);
    traced(out);
    await deleteRows(trx, out.confirmed);
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
