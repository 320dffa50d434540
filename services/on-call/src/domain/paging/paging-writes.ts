import { randomUUID } from 'node:crypto';
import type { Transaction } from '@firewatch/resource-kit';
import type { AlertEventInput } from '../alerts-in/alerts-in.deps.js';
import type { AttemptInput, PagingRecord, PagingStore, PagingUpdate, PagingWrites } from './paging.deps.js';

/**
 * The writes of one engine call (a start, a step, a stop, an escalation), kept until the
 * call ends and then made in one statement (PagingStore.writePaging): a paged alert's
 * paging row, its attempts, its timeline events and its timer's move were a round trip
 * each, and the statements, not the work in them, were most of a page's cost. A read of
 * what they write (the alert's latest run) writes them first; a call that throws leaves
 * them unwritten, as its transaction (or savepoint) is undone anyway.
 */
export function createPagingWrites(store: PagingStore) {
  const staged = new WeakMap<Transaction, PagingWrites>();
  const of = (tx: Transaction) => {
    let writes = staged.get(tx);
    if (!writes) staged.set(tx, (writes = { pagings: [], updates: new Map(), attempts: [], events: [] }));
    return writes;
  };

  async function flush(tx: Transaction) {
    const writes = staged.get(tx);
    staged.delete(tx);
    if (writes && (writes.pagings.length || writes.updates.size || writes.attempts.length || writes.events.length))
      await store.writePaging(tx, writes);
  }

  return {
    /** Runs one engine call on `tx`: what it stages is written at its end. */
    async batched<T>(tx: Transaction, work: () => Promise<T>): Promise<T> {
      try {
        const result = await work();
        await flush(tx);
        return result;
      } finally {
        staged.delete(tx);
      }
    },
    event(tx: Transaction, event: AlertEventInput) {
      of(tx).events.push(event);
    },
    /** A new paging, its id made here (as the column's default would): written with the call's other writes. */
    paging(tx: Transaction, paging: Omit<PagingRecord, 'id'>): PagingRecord {
      const row = { ...paging, id: randomUUID() };
      of(tx).pagings.push(row);
      return row;
    },
    update(tx: Transaction, id: string, columns: PagingUpdate) {
      const writes = of(tx);
      // A paging begun in this call is inserted as it ends up; one begun before is updated once.
      const fresh = writes.pagings.find((p) => p.id === id);
      if (fresh) Object.assign(fresh, columns);
      else writes.updates.set(id, { ...writes.updates.get(id), ...columns });
    },
    attempts(tx: Transaction, attempts: AttemptInput[]) {
      of(tx).attempts.push(...attempts);
    },
    /** The alert's latest run as stored, this call's pagings included. */
    async latestRun(tx: Transaction, alertId: string) {
      await flush(tx);
      return store.latestRun(tx, alertId);
    },
  };
}

export type PagingWriter = ReturnType<typeof createPagingWrites>;
