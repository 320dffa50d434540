import type { Knex } from 'knex';
import { afterCommit } from './after-commit.js';

/**
 * This process's outbox relays, told when a write that put rows in the outbox commits.
 *
 * Why not `NOTIFY` in the write: PostgreSQL commits the transactions that notify one at a
 * time, cluster-wide (a lock held from queueing the notification to the end of the commit,
 * WAL flush included), so every event-writing transaction of every service waited for the
 * previous one's flush and none shared a group commit: 16 writers made ~1,000–1,250
 * commits/s with a notify against ~2,600–3,700 without, on this project's CI machine
 * (docs/performance.md, "Floor"). A relay runs in each service process that writes events,
 * so telling it in-process after the commit wakes it as fast. A process where no relay runs
 * (the CLIs, the webhook dispatcher writing to the webhooks outbox) still sends the NOTIFY,
 * as before: its writes are few, and the services' relays LISTEN. Rows of a replica whose
 * ordered relay found another replica's batch holding the turn (that replica is not told)
 * wait for a relay's poll, `pollIntervalMs` (1 s): up to a second late (docs/design.md, "Events").
 */
const relays = new Set<() => void>();

/** Calls `wake` after each commit of outbox rows in this process; returns the unsubscribe. */
export function onOutboxCommit(wake: () => void): () => void {
  relays.add(wake);
  return () => relays.delete(wake);
}

/** True when a relay runs in this process: its writes wake it rather than NOTIFY. */
export function relayInProcess(): boolean {
  return relays.size > 0;
}

function wakeAll(): void {
  for (const wake of relays) wake();
}

/** Wakes this process's relays once `trx` has committed (see {@link afterCommit}). */
export function wakeRelaysOnCommit(trx: Knex.Transaction | Knex): void {
  if (relays.size) afterCommit(trx, wakeAll);
}
