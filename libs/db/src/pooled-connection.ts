/** A connection of tarn's pool as the pool keeps it (tarn's `Resource`). */
interface PoolEntry<C> {
  resource: C;
}

/**
 * tarn's `Pool` (knex's pool, tarn 3), as far as handing out an idle connection goes:
 * its idle and used connections, its queue of acquires, and the validation knex gives it.
 */
interface TarnPool<C> {
  free: PoolEntry<C>[];
  used: PoolEntry<C>[];
  pendingAcquires: unknown[];
  validate(connection: C): unknown;
  release(connection: C): boolean;
  emitter: { listenerCount(event: string): number };
  _startReaping(): void;
  destroyed: boolean;
}

/** knex's client, as far as its pool goes. */
export interface PoolClient<C> {
  pool?: unknown;
  acquireConnection(): Promise<C>;
  releaseConnection(connection: C): Promise<unknown>;
}

const isTarnPool = (pool: unknown): pool is TarnPool<unknown> => {
  const p = pool as Partial<TarnPool<unknown>> | null | undefined;
  return (
    Array.isArray(p?.free) &&
    Array.isArray(p.used) &&
    Array.isArray(p.pendingAcquires) &&
    typeof p.validate === 'function' &&
    typeof p.release === 'function' &&
    typeof p._startReaping === 'function' &&
    typeof p.emitter?.listenerCount === 'function'
  );
};

/**
 * A connection of knex's pool, as `client.acquireConnection()` gives it, taken straight
 * from the idle ones when the pool has one and no acquire is queued before it. tarn's
 * acquire builds two pending operations (a deferred, a timeout's promise and timer each)
 * and a chain of promises and event dispatches around every connection it hands out: a
 * visible share of a lookup's CPU. Taken here, the connection moves from idle to used
 * and is validated as tarn would (knex's check: not disposed, not past its lifetime), so
 * the pool's size limit, its order (an acquire already waiting is served first: this one
 * then waits in line through tarn) and its idle reaping hold. The acquire timeout has
 * nothing to time: an idle connection is handed out at once. A connection that fails
 * validation goes back to the pool, whose own acquire then destroys it and serves this
 * call; so does every call while anyone listens to the pool's acquire events.
 */
export async function acquirePooled<C>(client: PoolClient<C>): Promise<C> {
  const pool = client.pool;
  if (
    !isTarnPool(pool) ||
    pool.destroyed ||
    pool.free.length === 0 ||
    pool.pendingAcquires.length !== 0 ||
    pool.emitter.listenerCount('acquireRequest') !== 0 ||
    pool.emitter.listenerCount('acquireSuccess') !== 0
  )
    return client.acquireConnection();
  // The most recently released, as tarn takes it (it pops).
  const entry = pool.free.pop()!;
  pool.used.push(entry);
  let valid: unknown;
  try {
    valid = await pool.validate(entry.resource);
  } catch {
    valid = false;
  }
  if (valid) {
    pool._startReaping();
    return entry.resource as C;
  }
  pool.release(entry.resource);
  return client.acquireConnection();
}
