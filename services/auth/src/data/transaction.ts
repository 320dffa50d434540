import type { Knex } from 'knex';
import type { Tx, UnitOfWork } from '../domain/unit-of-work.js';

export function createUnitOfWork(knex: Knex): UnitOfWork {
  return { run: (fn) => knex.transaction(fn) };
}

/** `tx` when the caller already holds one, else the pool. */
export function executor(knex: Knex, tx?: Tx): Knex {
  return tx ?? knex;
}
