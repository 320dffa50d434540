import type { ConfirmChannel } from 'amqplib';

/** One claimed outbox row, as the relay reads it. */
export interface OutboxRow {
  seq: string | number;
  id: string;
  type: string;
  team_id: number;
  payload: Record<string, unknown>;
}

/** How a batch went, row by row. */
export interface BatchOutcome {
  /** Confirmed by the broker: safe to delete. */
  confirmed: OutboxRow[];
  /** Refused because of the row itself (nacked, or rejected by the client library): defer these. */
  poisoned: { row: OutboxRow; error: string }[];
  /** Not known to be delivered, through no fault of their own: leave them for a later batch. */
  unsent: OutboxRow[];
  /** Set when the channel or broker failed (closed, no drain, confirm timeout). */
  failure?: Error;
}

export interface PublishOptions {
  exchange: string;
  /** The connection's broker user, set as each message's `user-id` so consumers know who published it. */
  userId: string;
  confirmTimeoutMs: number;
  /** False once the channel has closed. */
  isOpen(): boolean;
  /** The channel-level error the broker raised during this batch, if any. */
  channelError(): Error | null;
}

/** A row's envelope in its documented key order (jsonb does not keep key order); the optional keys only when present. */
export function outboxEnvelope(p: Record<string, unknown>): Record<string, unknown> {
  return {
    id: p.id,
    type: p.type,
    occurred_at: p.occurred_at,
    team_id: p.team_id,
    data: p.data,
    request_id: p.request_id,
    traceparent: p.traceparent,
  };
}

function body(p: Record<string, unknown>): Buffer {
  return Buffer.from(JSON.stringify(outboxEnvelope(p)));
}

function waitForDrain(ch: ConfirmChannel, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      ch.off('drain', onDrain);
      ch.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    ch.on('drain', onDrain);
    ch.on('close', onClose);
  });
}

/**
 * Publishes `rows` in order on a confirm channel and reports, per row, whether the
 * broker confirmed it. Confirms are awaited through per-message callbacks (the same
 * mechanism as `waitForConfirms`, but telling which row was refused) under a timeout:
 * what is unconfirmed when it expires counts as not sent. When `publish` reports a
 * full write buffer the loop waits for `drain` instead of buffering more.
 */
export async function publishRows(ch: ConfirmChannel, rows: OutboxRow[], opts: PublishOptions): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { confirmed: [], poisoned: [], unsent: [] };
  const pending: { row: OutboxRow; result: Error | null | undefined; settled: Promise<void> }[] = [];
  let i = 0;
  for (; i < rows.length; i++) {
    const row = rows[i];
    const entry = { row, result: undefined as Error | null | undefined, settled: Promise.resolve() };
    let accepted: boolean;
    try {
      let settle!: () => void;
      entry.settled = new Promise<void>((r) => {
        settle = r;
      });
      accepted = ch.publish(
        opts.exchange,
        row.type,
        body(row.payload),
        {
          persistent: true,
          contentType: 'application/json',
          messageId: row.id,
          type: row.type,
          userId: opts.userId,
          headers: { team_id: row.team_id },
        },
        (err: unknown) => {
          entry.result = err ? (err instanceof Error ? err : new Error(String(err))) : null;
          settle();
        },
      );
    } catch (err) {
      if ((err as Error).name === 'IllegalOperationError' || !opts.isOpen()) {
        outcome.failure = err as Error;
        break;
      }
      // The client refused to encode this message (e.g. a routing key over 255 bytes): only this row is at fault.
      outcome.poisoned.push({ row, error: (err as Error).message });
      continue;
    }
    pending.push(entry);
    if (!accepted && !(await waitForDrain(ch, opts.confirmTimeoutMs))) {
      outcome.failure = new Error('publish buffer did not drain');
      i++;
      break;
    }
  }
  outcome.unsent.push(...rows.slice(i));

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((r) => {
    timer = setTimeout(() => r(true), opts.confirmTimeoutMs);
  });
  const allSettled = Promise.all(pending.map((p) => p.settled)).then(() => false);
  if (await Promise.race([allSettled, timedOut])) outcome.failure ??= new Error(`no publisher confirm within ${opts.confirmTimeoutMs} ms`);
  clearTimeout(timer);

  // A broker channel error (e.g. a message over max_message_size) closes the channel
  // without saying which message caused it: suspect the first one left unconfirmed.
  let suspect = opts.channelError() !== null;
  for (const p of pending) {
    if (p.result === null) outcome.confirmed.push(p.row);
    else if (p.result?.message === 'message nacked') outcome.poisoned.push({ row: p.row, error: 'nacked by broker' });
    else if (suspect && opts.isOpen() === false && p.result) {
      suspect = false;
      outcome.poisoned.push({ row: p.row, error: `channel error: ${opts.channelError()?.message}` });
    } else outcome.unsent.push(p.row);
  }
  if (!outcome.failure && outcome.unsent.length) outcome.failure = opts.channelError() ?? new Error('channel closed');
  return outcome;
}
