import { jest } from '@jest/globals';
import type { Knex } from 'knex';
import pg from 'pg';
import { createDb } from '../src/index.js';
import { acquirePooled, type PoolClient } from '../src/pooled-connection.js';

interface Pool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  acquire(): unknown;
  on(event: string, listener: (...args: unknown[]) => void): void;
  removeListener(event: string, listener: (...args: unknown[]) => void): void;
}

const opened: Knex[] = [];
const open = async (poolMax: number, idle = 0) => {
  const knex = createDb(process.env.TEST_DATABASE_URL!, { poolMax });
  opened.push(knex);
  // Opens `idle` connections and leaves them in the pool.
  await Promise.all(Array.from({ length: idle }, () => knex.raw('select pg_sleep(0.05)')));
  const client = knex.client as PoolClient<pg.Client> & { pool: Pool };
  return { client, pool: client.pool };
};

afterEach(async () => {
  for (const knex of opened.splice(0)) await knex.destroy();
});

describe('acquirePooled', () => {
  it('hands out an idle connection without a tarn acquire, counted as used until released', async () => {
    const { client, pool } = await open(2, 1);
    const acquire = jest.spyOn(pool, 'acquire');
    const connection = await acquirePooled(client);
    expect(acquire).not.toHaveBeenCalled();
    expect((await connection.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    expect([pool.numUsed(), pool.numFree()]).toEqual([1, 0]);
    await client.releaseConnection(connection);
    expect([pool.numUsed(), pool.numFree()]).toEqual([0, 1]);
  });

  it('keeps the pool size: with every connection in use it waits in line behind earlier acquires', async () => {
    const { client, pool } = await open(1, 1);
    const held = await acquirePooled(client);
    const order: string[] = [];
    const first = client.acquireConnection().then((c) => (order.push('first'), c));
    const second = acquirePooled(client).then((c) => (order.push('second'), c));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    expect(pool.numPendingAcquires()).toBe(2);
    await client.releaseConnection(held);
    const c1 = await first;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(['first']);
    await client.releaseConnection(c1);
    const c2 = await second;
    expect(order).toEqual(['first', 'second']);
    expect(c2).toBe(held);
    await client.releaseConnection(c2);
  });

  it('never hands out a connection that died while idle: the pool replaces it', async () => {
    const { client, pool } = await open(2, 1);
    // knex warns of the ended connection as it validates it.
    const warning = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const dead = await acquirePooled(client);
    await client.releaseConnection(dead);
    const ended = new Promise((resolve) => dead.once('end', resolve));
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query('select pg_terminate_backend($1)', [(dead as unknown as { processID: number }).processID]);
    await admin.end();
    await ended;
    const connection = await acquirePooled(client);
    expect(connection).not.toBe(dead);
    expect((await connection.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    expect([pool.numUsed(), pool.numFree()]).toEqual([1, 0]);
    await client.releaseConnection(connection);
    warning.mockRestore();
  });

  it("goes through the pool's acquire while anyone listens to its acquire events", async () => {
    const { client, pool } = await open(2, 1);
    const seen = jest.fn();
    pool.on('acquireSuccess', seen);
    const connection = await acquirePooled(client);
    expect(seen).toHaveBeenCalledTimes(1);
    pool.removeListener('acquireSuccess', seen);
    await client.releaseConnection(connection);
  });
});
