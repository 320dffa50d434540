import type { Knex } from 'knex';

/**
 * Takes a transaction-scoped advisory lock on (`namespace`, `key`): transactions asking
 * for the same pair take turns until each commits or rolls back. It makes "count, then
 * insert if under the cap" hold under concurrent requests without locking whole tables.
 */
export async function lockForTransaction(tx: Knex.Transaction, namespace: string, key: number): Promise<void> {
  await tx.raw('SELECT pg_advisory_xact_lock(hashtext(?), ?)', [namespace, key]);
}
