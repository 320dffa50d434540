import { observedGauge, type Metrics } from './process-metrics.js';

/** What is read of a knex pool (tarn's `Pool`): counted on each scrape, never on a query's path. */
export interface PoolLike {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  readonly max: number;
}

/** A knex instance, as far as its pool goes (no knex import: the pool is all that is read). */
export interface PooledClient {
  readonly client: { readonly pool?: PoolLike | null };
}

/**
 * The database pool's use, read on each scrape: connections in use and idle
 * (`firewatch_db_pool_connections{state}`), queries waiting for one
 * (`firewatch_db_pool_pending_acquires`) and the pool's size (`firewatch_db_pool_max_connections`).
 * A destroyed pool reports nothing.
 */
export function observeKnexPool(metrics: Metrics, knex: PooledClient, pool = 'main'): void {
  const poolOf = () => knex.client.pool ?? undefined;
  observedGauge(metrics, 'firewatch_db_pool_connections', 'Database connections of the pool, in use or idle.', ['pool', 'state'], (g) => {
    const p = poolOf();
    if (!p) return;
    g.set({ pool, state: 'used' }, p.numUsed());
    g.set({ pool, state: 'idle' }, p.numFree());
  });
  observedGauge(metrics, 'firewatch_db_pool_pending_acquires', 'Queries waiting for a database connection.', ['pool'], (g) => {
    const p = poolOf();
    if (p) g.set({ pool }, p.numPendingAcquires());
  });
  observedGauge(metrics, 'firewatch_db_pool_max_connections', 'The most connections the pool opens.', ['pool'], (g) => {
    const p = poolOf();
    if (p) g.set({ pool }, p.max);
  });
}
