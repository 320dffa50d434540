import type { ConfirmChannel } from 'amqplib';
import type { Knex } from 'knex';
import type { Logger } from '@firewatch/logger';
import { publishRows } from './outbox.publisher.js';
import { claimRows, deferRow, deleteRows, noteFailure, takeRelayTurn } from './outbox.repository.js';

/** What one batch needs from the relay. */
export interface BatchContext {
  knex: Knex;
  logger: Logger;
  exchange: string;
  /** See `PublishOptions.userId`. */
  userId: string;
  batchSize: number;
  confirmTimeoutMs: number;
  ordered: boolean;
  /** False once `ch` has closed. */
  isOpen(): boolean;
  /** The channel-level error the broker raised since `resetChannelError()`, if any. */
  channelError(): Error | null;
  resetChannelError(): void;
}

/** How a batch went: rows claimed, rows confirmed, and the errors worth reporting. */
export interface BatchResult {
  claimed: number;
  published: number;
  /** Set when the broker or channel failed; the rows stay due. */
  failure?: Error;
  /** The first per-row refusal, if any (those rows were deferred). */
  rowError?: string;
}

/**
 * One claim → publish → settle cycle in a single transaction: confirmed rows are deleted,
 * refused rows deferred, rows caught in a broker failure left due with the error noted.
 * The row locks are held until the broker answered, so no other replica publishes them
 * meanwhile.
 */
export function relayBatch(ch: ConfirmChannel, ctx: BatchContext): Promise<BatchResult> {
  return ctx.knex.transaction(async (trx) => {
    if (ctx.ordered && !(await takeRelayTurn(trx))) return { claimed: 0, published: 0 };
    const rows = await claimRows(trx, ctx.batchSize);
    if (!rows.length) return { claimed: 0, published: 0 };
    ctx.resetChannelError();
    const out = await publishRows(ch, rows, {
      exchange: ctx.exchange,
      userId: ctx.userId,
      confirmTimeoutMs: ctx.confirmTimeoutMs,
      isOpen: ctx.isOpen,
      channelError: ctx.channelError,
    });
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
