import type { Knex } from 'knex';

/** An open database transaction; opaque to the domain, which only passes it along. */
export type Tx = Knex.Transaction;

export interface UnitOfWork {
  /** Runs `fn` in one transaction: everything it writes commits together or not at all. */
  run<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}
