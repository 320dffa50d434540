import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { afterCommit } from '../src/index.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('fw_events_after_commit');
  await db.knex.raw('create table written (id integer primary key)');
});
afterAll(async () => {
  await db?.drop();
});

/** Whether another connection sees row `id`: what a woken relay or send job would claim. */
const seen = async (id: number) => (await db.knex('written').where({ id })).length === 1;

describe('afterCommit', () => {
  it('runs once the outermost transaction committed, asked from savepoints two deep, and once however often it is asked', async () => {
    const visible: boolean[] = [];
    const runs: string[] = [];
    const run = () => {
      runs.push('run');
      // Asked on another connection as soon as it runs: the commit is done, not only the savepoint's release.
      void seen(1).then((v) => visible.push(v));
    };
    await db.knex.transaction(async (trx) => {
      await trx.transaction(async (sp) => {
        await sp.transaction(async (inner) => {
          await inner('written').insert({ id: 1 });
          afterCommit(inner, run);
        });
        afterCommit(sp, run);
      });
      await new Promise((r) => setTimeout(r, 20));
      expect(runs).toEqual([]);
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(runs).toEqual(['run']);
    expect(visible).toEqual([true]);
  });

  it('never runs when the outermost transaction fails, though the savepoint that asked was released', async () => {
    const runs: string[] = [];
    await expect(
      db.knex.transaction(async (trx) => {
        await trx.transaction(async (sp) => {
          await sp('written').insert({ id: 2 });
          afterCommit(sp, () => runs.push('run'));
        });
        throw new Error('the write failed after its savepoint');
      }),
    ).rejects.toThrow('the write failed');
    await new Promise((r) => setTimeout(r, 50));
    expect(runs).toEqual([]);
    expect(await seen(2)).toBe(false);
  });

  it('runs soon after for a statement outside a transaction, which committed when it answered', async () => {
    const runs: string[] = [];
    await db.knex('written').insert({ id: 3 });
    afterCommit(db.knex, () => runs.push('run'));
    expect(runs).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual(['run']);
  });
});
