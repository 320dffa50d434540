import type { Knex } from 'knex';

const scheduled = new WeakMap<object, Set<() => void>>();

/**
 * Runs `run` once `trx` has committed — its outermost transaction (a savepoint's release
 * commits nothing), once per transaction however often it is asked — and never before nor
 * when the transaction fails; soon after for a write outside a transaction, which has
 * committed when its statement answered. (An explicit `trx.rollback()` without an error
 * resolves knex's transaction as a commit does: `run` then runs for nothing, so it must be
 * a wake-up, never a claim that something was written.)
 *
 * What it is for: waking a job of this process that reads what the transaction wrote,
 * where a `NOTIFY` would make PostgreSQL commit the transaction after every other notifying
 * one, cluster-wide (outbox-commits.ts).
 */
export function afterCommit(trx: Knex.Transaction | Knex, run: () => void): void {
  if (!('executionPromise' in trx) || !trx.executionPromise) return void queueMicrotask(run);
  let outer: Knex.Transaction = trx;
  while (outer.parentTransaction) outer = outer.parentTransaction;
  let runs = scheduled.get(outer);
  if (!runs) {
    const pending = new Set<() => void>();
    scheduled.set(outer, (runs = pending));
    // A failed transaction rejects it: nothing was written, and the rejection is its caller's to handle.
    outer.executionPromise.then(
      () => pending.forEach((r) => r()),
      () => undefined,
    );
  }
  runs.add(run);
}
