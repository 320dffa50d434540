import type { Knex } from 'knex';

/**
 * This process's outbox relays, told when a write that put rows in the outbox commits.
 *
 * Why not `NOTIFY` in the write: PostgreSQL commits the transactions that notify one at a
 * time, cluster-wide (a lock held from queueing the notification to the end of the commit,
 * WAL flush included), so every event-writing transaction of every service waited for the
 * previous one's flush and none shared a group commit: 16 writers made ~1,000–1,250
 * commits/s with a notify against ~2,600–3,700 without, on this project's CI machine
 * (docs/performance.md, "Floor"). A relay runs in each process that writes events, so
 * telling it in-process after the commit wakes it as fast; its poll remains the safety net
 * for rows another process wrote (a CLI, a replica whose relay lost the turn).
 */
const relays = new Set<() => void>();
const hooked = new WeakSet<object>();

/** Calls `wake` after each commit of outbox rows in this process; returns the unsubscribe. */
export function onOutboxCommit(wake: () => void): () => void {
  relays.add(wake);
  return () => relays.delete(wake);
}

function wakeAll(): void {
  for (const wake of relays) wake();
}

/**
 * Wakes this process's relays once `trx` (its outermost transaction: a savepoint's release
 * commits nothing) has committed, never before, nor when it fails; at once for a write
 * outside a transaction, which has committed when its statement answered. (An explicit
 * `trx.rollback()` without an error resolves knex's transaction as a commit does: the
 * relays then wake for nothing, a claim that finds no row.)
 */
export function wakeRelaysOnCommit(trx: Knex.Transaction | Knex): void {
  if (!relays.size) return;
  if (!('executionPromise' in trx) || !trx.executionPromise) return void queueMicrotask(wakeAll);
  let outer: Knex.Transaction = trx;
  while (outer.parentTransaction) outer = outer.parentTransaction;
  if (hooked.has(outer)) return;
  hooked.add(outer);
  // A failed transaction rejects it: nothing to publish, and the rejection is its caller's to handle.
  outer.executionPromise.then(wakeAll, () => undefined);
}
