import knex, { type Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { afterCommit, pipelinedTransaction } from '../src/index.js';

// The object a pipelined transaction's `fn` gets is built for less than knex's own transactor
// (one per transaction), and must do what knex's does: these compare the two.
let db: TestDatabase;
/** One connection: a leaked statement would land in the next transaction. */
let one: Knex;
beforeAll(async () => {
  db = await createTestDatabase('fw_events_pipelined_transactor');
  one = knex({ client: 'pg', connection: db.url, pool: { min: 1, max: 1 } });
  await db.knex.schema.createTable('items', (t) => {
    t.integer('id').primary();
    t.text('note');
  });
});
afterAll(async () => {
  await one?.destroy();
  await db?.drop();
});
beforeEach(async () => {
  await db.knex('items').delete();
});

const ids = async () => (await db.knex('items').orderBy('id').pluck('id')) as number[];

/** The SQL of the knex instance's `query` events while `work` runs. */
async function statements(k: Knex, work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (q: { sql: string }) => seen.push(q.sql);
  k.on('query', listener);
  try {
    await work().catch(() => undefined);
  } finally {
    k.off('query', listener);
  }
  return seen;
}

describe("a pipelined transaction's object", () => {
  it("offers every member of knex's transactor, of the same kind", async () => {
    const theirs = await db.knex.transaction(async (trx) => trx);
    const ours = await pipelinedTransaction(db.knex, async (trx) => trx);
    expect(typeof ours).toBe('function');
    const members = new Set<string>();
    for (const key in theirs) members.add(key);
    for (const key of Object.getOwnPropertyNames(theirs)) members.add(key);
    // `parentTransaction` is a nested transaction's only.
    members.delete('parentTransaction');
    for (const key of members) {
      expect([key, key in ours]).toEqual([key, true]);
      if (key !== 'schema' && key !== 'migrate' && key !== 'seed' && key !== 'fn')
        expect([key, typeof (ours as unknown as Record<string, unknown>)[key]]).toEqual([
          key,
          typeof (theirs as unknown as Record<string, unknown>)[key],
        ]);
    }
    expect(ours.isTransaction).toBe(true);
    expect(ours.userParams).toBe(theirs.userParams);
    expect(() => ours.withUserParams({})).toThrow('Cannot set user params on a transaction');
  });

  it('runs builders, raw statements, functions and the schema builder in the transaction', async () => {
    const written = await pipelinedTransaction(db.knex, async (trx) => {
      await trx('items').insert({ id: 1, note: 'a' });
      await trx.insert({ id: 2, note: 'b' }).into('items');
      await trx.raw('insert into items (id, note) values (?, ?)', [3, 'c']);
      await trx('items')
        .where({ id: 3 })
        .update({ note: trx.raw('? || note', ['x']) });
      const [{ now }] = (await trx.raw('select ? as now', [trx.fn.now()])).rows;
      expect(now).toBeInstanceOf(Date);
      expect(await trx.schema.hasTable('items')).toBe(true);
      // Inside the transaction: not seen from outside until it commits.
      // int8 as a number: @firewatch/events imports @firewatch/db, whose type parsers every service has.
      expect(await db.knex('items').count<{ n: number }[]>('* as n')).toEqual([{ n: 0 }]);
      return trx('items').orderBy('id').pluck('note');
    });
    expect(written).toEqual(['a', 'b', 'xc']);
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it("sends the statements knex's transaction sends, with their events on the knex instance", async () => {
    const work = (run: (fn: (trx: Knex.Transaction) => Promise<unknown>) => Promise<unknown>, id: number) => () =>
      run(async (trx) => {
        await trx('items').insert({ id });
        await trx.transaction((inner) => inner('items').insert({ id: id + 1 }));
        await trx('items').where({ id }).update({ note: 'n' });
      });
    const theirs = await statements(
      db.knex,
      work((fn) => db.knex.transaction(fn), 1),
    );
    const ours = await statements(
      db.knex,
      work((fn) => pipelinedTransaction(db.knex, fn), 11),
    );
    const savepoint = (sql: string) => sql.replace(/trx\d+/g, 'trx');
    expect(ours.map(savepoint)).toEqual(theirs.map(savepoint));
    expect(ours[0]).toBe('BEGIN;');
    expect(ours[ours.length - 1]).toBe('COMMIT;');
  });

  it("tells the transaction's own listeners of its statements only, as knex's transactor does", async () => {
    const heard = async (run: (fn: (trx: Knex.Transaction) => Promise<unknown>) => Promise<unknown>, id: number) => {
      const mine: string[] = [];
      await Promise.all([
        run(async (trx) => {
          (trx as unknown as NodeJS.EventEmitter).on('query', (q: { sql: string }) => mine.push(q.sql));
          await trx('items').insert({ id });
        }),
        run((trx) => trx('items').insert({ id: id + 1 })),
      ]);
      return mine;
    };
    const ours = await heard((fn) => pipelinedTransaction(db.knex, fn), 1);
    expect(ours).toEqual(await heard((fn) => db.knex.transaction(fn), 11));
    expect(ours).toEqual(['insert into "items" ("id") values ($1)', 'COMMIT;']);
  });

  it('resolves with what fn returns, settles executionPromise alike, and is completed after', async () => {
    let trx!: Knex.Transaction;
    const result = await pipelinedTransaction(db.knex, async (t) => {
      trx = t;
      expect(t.isCompleted()).toBe(false);
      await t('items').insert({ id: 1 });
      return 'done';
    });
    expect(result).toBe('done');
    await expect(trx.executionPromise).resolves.toBe('done');
    expect(trx.isCompleted()).toBe(true);
  });

  it('refuses a statement once it has ended, as knex does, and it does not reach the next transaction', async () => {
    let trx!: Knex.Transaction;
    await pipelinedTransaction(one, async (t) => {
      trx = t;
      await t('items').insert({ id: 1 });
    });
    await pipelinedTransaction(one, async (t) => {
      await expect(trx('items').insert({ id: 2 })).rejects.toThrow('Transaction query already complete');
      await t('items').insert({ id: 3 });
      throw new Error('rolled back');
    }).catch(() => undefined);
    expect(await ids()).toEqual([1]);
  });

  it('gives each transaction an object of its own', async () => {
    const seen = await Promise.all(
      [1, 2, 3].map((id) => pipelinedTransaction(db.knex, async (trx) => (await trx('items').insert({ id }), trx))),
    );
    expect(new Set(seen).size).toBe(3);
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it('rolls back on an explicit rollback(), resolving with nothing as knex does; rollback(error) rejects with it', async () => {
    const outcome = async (run: (fn: (trx: Knex.Transaction) => Promise<unknown>) => Promise<unknown>, error?: Error) =>
      run(async (trx) => {
        await trx('items').insert({ id: 1 });
        await trx.rollback(error);
        return 'after';
      }).then(
        (value) => ({ value }),
        (err: Error) => ({ error: err.message }),
      );
    for (const error of [undefined, new Error('no')]) {
      const theirs = await outcome((fn) => db.knex.transaction(fn), error);
      const ours = await outcome((fn) => pipelinedTransaction(db.knex, fn), error);
      expect(ours).toEqual(theirs);
      expect(await ids()).toEqual([]);
    }
    expect(await outcome((fn) => pipelinedTransaction(db.knex, fn))).toEqual({ value: undefined });
  });

  it("commits and rolls back through its methods taken off it, as knex's bound ones do", async () => {
    await pipelinedTransaction(db.knex, (trx) => trx('items').insert({ id: 1 }).then(trx.commit).catch(trx.rollback));
    expect(await ids()).toEqual([1]);
    await pipelinedTransaction(db.knex, async (trx) => {
      const { rollback, isCompleted } = trx;
      await trx('items').insert({ id: 2 });
      await rollback();
      expect(isCompleted()).toBe(true);
    });
    expect(await ids()).toEqual([1]);
  });

  it("is a savepoint of a transaction it is given as knex: the outer one's rollback undoes it", async () => {
    await db.knex
      .transaction(async (outer) => {
        await outer('items').insert({ id: 5 });
        await pipelinedTransaction(outer, (trx) => trx('items').insert({ id: 6 }));
        throw new Error('undo');
      })
      .catch(() => undefined);
    expect(await ids()).toEqual([]);
  });

  it("keeps a listener added to one transaction's client to that transaction", async () => {
    const heard: string[] = [];
    await pipelinedTransaction(db.knex, async (trx) => {
      trx.client.on('query', (q: { sql: string }) => heard.push(q.sql));
      await trx('items').insert({ id: 7 });
    });
    const before = heard.length;
    await pipelinedTransaction(db.knex, (trx) => trx('items').insert({ id: 8 }));
    expect(before).toBeGreaterThan(0);
    expect(heard.length).toBe(before);
  });

  it("reads the knex instance's userParams at each transaction", async () => {
    const k = knex({ client: 'pg', connection: db.url, pool: { min: 0, max: 1 } });
    try {
      await pipelinedTransaction(k, async () => undefined);
      k.userParams = { tenant: 'a' };
      expect(await pipelinedTransaction(k, async (trx) => trx.userParams)).toEqual({ tenant: 'a' });
    } finally {
      await k.destroy();
    }
  });

  it('commits on an explicit commit(value), which is what it resolves with', async () => {
    const result = await pipelinedTransaction(db.knex, async (trx) => {
      await trx('items').insert({ id: 1 });
      await trx.commit('committed');
      return 'later';
    });
    expect(result).toBe('committed');
    expect(await ids()).toEqual([1]);
  });

  it('rejects with what fn threw, as knex does, a non-error included', async () => {
    await expect(pipelinedTransaction(db.knex, () => Promise.reject(new Error('thrown')))).rejects.toThrow('thrown');
    await expect(
      pipelinedTransaction(db.knex, async (trx) => {
        await trx('items').insert({ id: 1 });
        throw 'text';
      }),
    ).rejects.toBe('text');
    expect(await ids()).toEqual([]);
  });

  it('runs savepoints in turn, as nested knex transactions whose parent is this one', async () => {
    const order: string[] = [];
    await pipelinedTransaction(db.knex, async (trx) => {
      await Promise.all(
        [1, 2].map((id) =>
          trx.savepoint(async (sp) => {
            expect(sp.parentTransaction).toBe(trx);
            order.push(`start ${id}`);
            await sp('items').insert({ id });
            order.push(`end ${id}`);
          }),
        ),
      );
    });
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    expect(await ids()).toEqual([1, 2]);
  });

  it("runs what afterCommit is given once it committed, a savepoint's included, and never when it failed", async () => {
    const ran: string[] = [];
    await pipelinedTransaction(db.knex, async (trx) => {
      afterCommit(trx, () => ran.push('outer'));
      await trx.transaction(async (sp) => afterCommit(sp, () => ran.push('inner')));
      await trx('items').insert({ id: 1 });
      expect(ran).toEqual([]);
    });
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual(['outer', 'inner']);
    await pipelinedTransaction(db.knex, async (trx) => {
      afterCommit(trx, () => ran.push('failed'));
      await trx('items').insert({ id: 1 });
    }).catch(() => undefined);
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual(['outer', 'inner']);
  });
});
