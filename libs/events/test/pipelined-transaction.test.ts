import { jest } from '@jest/globals';
import knex, { type Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { outboxMigration, pipelinedTransaction, writeEvent } from '../src/index.js';
import { SENT_WITH_NEXT } from '../src/pipelined-transaction.js';
import { onOutboxCommit } from '../src/outbox-commits.js';

let db: TestDatabase;
/** A pool of one connection, so that every transaction runs on the connection watched. */
let one: Knex;
beforeAll(async () => {
  db = await createTestDatabase('fw_events_pipelined_tx');
  one = knex({ client: 'pg', connection: db.url, pool: { min: 1, max: 1 } });
  await outboxMigration.up(db.knex);
  await db.knex.schema.createTable('things', (t) => {
    t.integer('id').primary();
  });
});
afterAll(async () => {
  await one?.destroy();
  await db?.drop();
});
beforeEach(async () => {
  await db.knex('things').delete();
  await db.knex('outbox').delete();
});

type Socket = { _write: (...a: unknown[]) => unknown; _writev: (...a: unknown[]) => unknown };

/** Counts the socket writes (a corked batch is one) of the pool's one connection while `work` runs. */
async function writesDuring(work: () => Promise<unknown>): Promise<number> {
  const connection = (await one.client.acquireConnection()) as { connection: { stream: Socket } };
  await one.client.releaseConnection(connection);
  const socket = connection.connection.stream;
  const write = jest.spyOn(socket, '_write');
  const writev = jest.spyOn(socket, '_writev');
  try {
    await work().catch(() => undefined);
    return write.mock.calls.length + writev.mock.calls.length;
  } finally {
    write.mockRestore();
    writev.mockRestore();
  }
}

const ids = async () => (await db.knex('things').orderBy('id').pluck('id')) as number[];
const outboxTypes = async () => (await db.knex('outbox').orderBy('seq').pluck('type')) as string[];
/** An insert marked as the outbox writer marks its rows. */
const held = (trx: Knex.Transaction, id: number) => trx.raw('insert into things (id) values (?)', [id]).options({ [SENT_WITH_NEXT]: true });

describe('a pipelined transaction', () => {
  it('writes BEGIN with the first statement: three writes for two statements and COMMIT, where there were four', async () => {
    const writes = await writesDuring(() =>
      pipelinedTransaction(one, async (trx) => {
        await trx('things').insert({ id: 1 });
        await trx('things').insert({ id: 2 });
      }),
    );
    expect(writes).toBe(3);
    expect(await ids()).toEqual([1, 2]);
  });

  it('writes a create as two: BEGIN with the insert, its outbox row with COMMIT (four before), both committed', async () => {
    const writes = await writesDuring(() =>
      pipelinedTransaction(one, async (trx) => {
        await trx('things').insert({ id: 1 });
        await writeEvent(trx, { type: 'environment.created', team_id: 1, data: { id: 1 } });
      }),
    );
    expect(writes).toBe(2);
    expect(await ids()).toEqual([1]);
    expect(await outboxTypes()).toEqual(['environment.created']);
  });

  it('runs the first statement inside the transaction: a failure after it rolls it back', async () => {
    await expect(
      pipelinedTransaction(db.knex, async (trx) => {
        await trx('things').insert({ id: 1 });
        const [{ open }] = (await trx.raw('select pg_current_xact_id_if_assigned() is not null as open')).rows;
        expect(open).toBe(true);
        throw new Error('after the insert');
      }),
    ).rejects.toThrow('after the insert');
    expect(await ids()).toEqual([]);
  });

  it('answers a failed first statement with its error, and the connection serves the next transaction', async () => {
    await db.knex('things').insert({ id: 1 });
    await expect(pipelinedTransaction(db.knex, (trx) => trx('things').insert({ id: 1 }))).rejects.toMatchObject({ code: '23505' });
    await pipelinedTransaction(db.knex, (trx) => trx('things').insert({ id: 2 }));
    expect(await ids()).toEqual([1, 2]);
  });

  it('fails the COMMIT with the error of a held statement that failed, and commits nothing', async () => {
    await db.knex('things').insert({ id: 1 });
    await expect(
      pipelinedTransaction(db.knex, async (trx) => {
        await trx('things').insert({ id: 2 });
        await writeEvent(trx, { type: 'environment.created', team_id: 1, data: {} });
        await held(trx, 1);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await ids()).toEqual([1]);
    expect(await outboxTypes()).toEqual([]);
  });

  it('fails a held statement whose values pg cannot convert at once, and commits nothing', async () => {
    // Converted only when sent with the COMMIT, nothing of it would reach PostgreSQL and the COMMIT would go on.
    const unconvertible = { big: 1n };
    await expect(
      pipelinedTransaction(db.knex, async (trx) => {
        await trx('things').insert({ id: 2 });
        await trx.raw('insert into things (id) select 3 where ?::jsonb is not null', [unconvertible]).options({ [SENT_WITH_NEXT]: true });
      }),
    ).rejects.toThrow(/BigInt/);
    expect(await ids()).toEqual([]);
  });

  it('answers the next statement with the error of a held one before it', async () => {
    await db.knex('things').insert({ id: 1 });
    await expect(
      pipelinedTransaction(db.knex, async (trx) => {
        await held(trx, 1);
        await trx('things').insert({ id: 2 });
      }),
    ).rejects.toMatchObject({ code: '23505', constraint: 'things_pkey' });
    expect(await ids()).toEqual([1]);
  });

  it('drops the held statements a rollback undoes: the error is the one that ended the transaction', async () => {
    await db.knex('things').insert({ id: 1 });
    await expect(
      pipelinedTransaction(db.knex, async (trx) => {
        await trx('things').insert({ id: 2 });
        await held(trx, 1);
        throw new Error('invalid');
      }),
    ).rejects.toThrow('invalid');
    // To a savepoint (where nothing is held): the outer transaction goes on and commits what it wrote.
    await pipelinedTransaction(db.knex, async (trx) => {
      await trx('things').insert({ id: 3 });
      await expect(
        trx.transaction(async (inner) => {
          await held(inner, 5);
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
      await trx('things').insert({ id: 4 });
    });
    expect(await ids()).toEqual([1, 3, 4]);
  });

  it('undoes a savepoint whose held statement failed, as before: the outer transaction goes on and commits what it wrote', async () => {
    await db.knex('things').insert({ id: 1 });
    await pipelinedTransaction(db.knex, async (trx) => {
      await trx('things').insert({ id: 2 });
      await expect(trx.transaction((inner) => held(inner, 1))).rejects.toMatchObject({ code: '23505' });
      await trx('things').insert({ id: 3 });
    });
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it('commits what it reports committed when a savepoint failed at its release and nothing came after it', async () => {
    await db.knex('things').insert({ id: 1 });
    await pipelinedTransaction(db.knex, async (trx) => {
      await trx('things').insert({ id: 2 });
      await trx.transaction((inner) => held(inner, 1)).catch(() => undefined);
    });
    expect(await ids()).toEqual([1, 2]);
  });

  it('sends nothing for a transaction that failed before any statement (BEGIN and ROLLBACK were two writes)', async () => {
    let failed: unknown;
    const writes = await writesDuring(() =>
      pipelinedTransaction(one, async () => {
        throw new Error('invalid');
      }).catch((err: unknown) => (failed = err)),
    );
    expect(writes).toBe(0);
    expect(failed).toMatchObject({ message: 'invalid' });
  });

  it('leaves the pooled connection as it found it', async () => {
    const connection = (await pipelinedTransaction(db.knex, async (trx) => {
      await trx('things').insert({ id: 1 });
      return trx.client.acquireConnection();
    })) as { pipeline: boolean };
    expect(connection.pipeline).toBe(false);
    expect(Object.prototype.hasOwnProperty.call(connection, 'query')).toBe(false);
  });
});

describe('a pipelined transaction preparing its statements', () => {
  // As in a service, where a relay runs: the outbox rows go alone, without a NOTIFY.
  let off: () => unknown;
  beforeAll(() => (off = onOutboxCommit(() => undefined)));
  afterAll(() => off());
  const prepared = async () =>
    (await one.raw(`select count(*)::int as n from pg_prepared_statements where name like 'fw_w_%'`)).rows[0].n as number;

  it('sends a one-row outbox insert as a named statement, parsed once per connection', async () => {
    await one.raw('deallocate all');
    for (let i = 0; i < 3; i++)
      await pipelinedTransaction(one, async (trx) => {
        await trx('things').insert({ id: i });
        await writeEvent(trx, { type: 'environment.created', team_id: 1, data: { id: i } });
      });
    expect(await prepared()).toBe(1);
    expect(await outboxTypes()).toEqual(['environment.created', 'environment.created', 'environment.created']);
  });

  it('runs the transaction again, unprepared, when its connection lost a statement it prepared (a transaction-mode pooler)', async () => {
    await pipelinedTransaction(one, (trx) => writeEvent(trx, { type: 'environment.created', team_id: 1, data: { id: 1 } }));
    // The server forgets it; node-postgres, which parses a name once per connection, does not.
    await one.raw('deallocate all');
    let runs = 0;
    await pipelinedTransaction(one, async (trx) => {
      runs++;
      await trx('things').insert({ id: 7 });
      await writeEvent(trx, { type: 'environment.updated', team_id: 1, data: { id: 7 } });
    });
    expect(runs).toBe(2);
    expect(await ids()).toEqual([7]);
    expect(await outboxTypes()).toEqual(['environment.created', 'environment.updated']);
    // Given up for the process: a later transaction prepares nothing.
    await pipelinedTransaction(one, (trx) => writeEvent(trx, { type: 'environment.deleted', team_id: 1, data: { id: 7 } }));
    expect(await prepared()).toBe(0);
  });
});
