import type { Tx } from './unit-of-work.js';

export interface EventOutbox {
  /**
   * Records an event in the transaction of the change that caused it (transactional
   * outbox, docs/design.md "Events"): it is published exactly when the change commits.
   */
  write(tx: Tx, event: { type: string; team_id: number; data: unknown }): Promise<void>;
  /** {@link EventOutbox.write} for many events in one statement per thousand. */
  writeAll(tx: Tx, events: readonly { type: string; team_id: number; data: unknown }[]): Promise<void>;
}
