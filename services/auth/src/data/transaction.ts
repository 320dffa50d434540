import type { Knex } from 'knex';

/** An open database transaction; opaque to the domain, which only passes it along. */
export type Tx = Knex.Transaction;

export interface UnitOfWork {
  /** Runs `fn` in one transaction: everything it writes commits together or not at all. */
  run<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

export function createUnitOfWork(knex: Knex): UnitOfWork {
  return { run: (fn) => knex.transaction(fn) };
}

/** `tx` when the caller already holds one, else the pool. */
export function executor(knex: Knex, tx?: Tx): Knex {
  return tx ?? knex;
}
