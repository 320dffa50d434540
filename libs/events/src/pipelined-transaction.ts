import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import pg from 'pg';
import { preparedQuery, type PreparedClient } from '@firewatch/db';

type Callback = (err: Error | null, result?: unknown) => void;

/** The parts of a node-postgres client (knex's pg connection) this uses. */
interface PgClient extends PreparedClient {
  query(config: unknown, values?: unknown, callback?: unknown): unknown;
  pipeline: boolean;
  binary?: boolean;
  connection: { stream: { cork(): void; uncork(): void } };
}

interface KnexPgClient {
  dialect?: string;
  transacting?: boolean;
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<unknown>;
}

/**
 * A knex query option (`.options({ [SENT_WITH_NEXT]: true })`) of a statement whose
 * answer its caller does not read: in a {@link pipelinedTransaction} it is answered at
 * once and written with the transaction's next statement (its COMMIT, say); should it
 * fail, that statement's answer is its error, and the transaction, aborted by
 * PostgreSQL, commits nothing. Elsewhere it changes nothing.
 */
export const SENT_WITH_NEXT = 'firewatchSentWithNext';

/**
 * The name under which a statement of `trx` with this SQL text (knex's, with `?`) runs as a
 * named prepared statement (pass it as the query option `name`), so that PostgreSQL parses
 * and plans it once per connection instead of on every call; undefined where it must run
 * unnamed. Only the statements of a {@link pipelinedTransaction} itself (not of a savepoint
 * in it) are prepared: should a prepared statement fail as such (a transaction-mode pooler
 * lost it, or a migration changed the columns a `returning *` answers or a column's type),
 * that transaction runs again with nothing prepared, so its caller sees what an unprepared
 * run answers. A named statement whose config holds nothing else of pg's (no `rowMode`,
 * `types`...) is sent as libs/db's `preparedQuery`: PostgreSQL describes its result once per
 * connection, where pg's `Query` asks on every execution; knex gets pg's Result as before.
 */
export function preparedName(trx: Knex.Transaction | Knex, text: string): string | undefined {
  if (!preparing.has(trx) || !prepareWrites) return undefined;
  let name = names.get(text);
  if (name === undefined && names.size < MAX_PREPARED) {
    // The digest of the text: one name means one SQL text in every process (a pooler's shared connections).
    name = `fw_w_${createHash('sha256').update(text).digest('hex').slice(0, 32)}_${generation}`;
    names.set(text, name);
  }
  return name;
}

// Statements are kept per server connection: their number is capped, later texts run unnamed.
const MAX_PREPARED = 200;
const names = new Map<string, string>();
// A changed table gets its statements under new names; a pooler that loses them ends preparing.
let generation = 0;
let prepareWrites = true;
/** The transactions (the objects `fn` gets) whose statements {@link preparedName} names. */
const preparing = new WeakSet<object>();

// 26000/42P05: a pooler handing each transaction another server connection lost the
// statement or shows another client's; 0A000: "cached plan must not change result type";
// 42804: a statement planned again after a migration changed a column's type keeps the
// parameter types it was first given ("column ... is of type integer but expression is of
// type text"), where an unprepared one takes the column's. No value a client sends makes
// PostgreSQL answer 42804 (a mismatch of types in the SQL itself): a retry answers the same.
function preparedFailure(err: unknown): 'lost' | 'stale' | undefined {
  const code = (err as { code?: string } | null)?.code;
  if (code === '26000' || code === '42P05') return 'lost';
  if (code === '42804' || (code === '0A000' && /cached plan/i.test(String((err as Error).message)))) return 'stale';
  return undefined;
}

// What a named statement's config may hold for it to go as libs/db's preparedQuery: knex's
// text and values, the name, our mark. Any other pg option (rowMode, types, binary, portal,
// rows, queryMode, query_timeout...) is pg's Query's to honour.
const PLAIN_KEYS = new Set(['text', 'values', 'name', SENT_WITH_NEXT]);
function plainNamed(config: object): boolean {
  for (const key in config) if (!PLAIN_KEYS.has(key)) return false;
  return true;
}

// What knex is told a statement not sent yet (or never: a BEGIN with nothing after it) answered; it reads nothing of it.
const NOT_SENT = Object.freeze({ command: '', rowCount: null, rows: [], fields: [] });

/**
 * `knex.transaction(fn)`, with fewer round trips: its `BEGIN`, and the statements marked
 * {@link SENT_WITH_NEXT} (the outbox rows), are not sent on their own but written with
 * the next statement whose answer is awaited, in one socket write (node-postgres'
 * pipeline mode), and PostgreSQL answers them in one reply. A create is then two round
 * trips: `BEGIN` with the insert, the outbox row with `COMMIT`. The statements are the
 * same, in the same order, in the same transaction; should a held one fail, the
 * statement written with it answers its error (PostgreSQL has aborted the transaction,
 * so a `COMMIT` rolls back). Inside a savepoint (a nested `trx.transaction`) nothing is
 * held: its statements go as knex sends them. A transaction that sends no statement (a 422 found before
 * any) sends neither `BEGIN` nor its `COMMIT` / `ROLLBACK`. The connection is in
 * pipeline mode only while the transaction holds it: knex awaits each statement, so they
 * still go one at a time; statements a hook sends concurrently are written at once
 * instead of queued, and run in the same order. `fn`'s transaction is a knex transaction
 * as `knex.transaction` gives it (the same members, statements, events, savepoints and
 * ending), built from parts every transaction of the knex client shares
 * ({@link transactionOn}): knex builds each of its own from scratch.
 */
export async function pipelinedTransaction<T>(knex: Knex, fn: (tx: Knex.Transaction) => Promise<T>): Promise<T> {
  const client = knex.client as unknown as KnexPgClient;
  // Inside a transaction, knex's own nested transaction: a savepoint of it, nothing held or prepared.
  if (client.dialect !== 'postgresql' || client.transacting) return knex.transaction(fn);
  const attempt = { prepared: false };
  try {
    return await pipelined(knex, client, fn, prepareWrites, attempt);
  } catch (err) {
    const failure = attempt.prepared ? preparedFailure(err) : undefined;
    if (!failure) throw err;
    if (failure === 'lost') prepareWrites = false;
    else {
      generation++;
      names.clear();
    }
    // Rolled back whole: once more, with nothing prepared.
    return pipelined(knex, client, fn, false, attempt);
  }
}

const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils;

/** `config` with its values as pg sends them (text, bytes or null: pg's conversion leaves those as they are). */
function convertedValues(config: unknown): unknown {
  const { values } = config as { values?: unknown };
  if (!Array.isArray(values) || values.length === 0) return config;
  return { ...(config as object), values: values.map((v) => prepareValue(v)) };
}

async function pipelined<T>(
  knex: Knex,
  client: KnexPgClient,
  fn: (tx: Knex.Transaction) => Promise<T>,
  prepare: boolean,
  attempt: { prepared: boolean },
): Promise<T> {
  const connection = await client.acquireConnection();
  const hadOwnQuery = Object.prototype.hasOwnProperty.call(connection, 'query');
  const send = connection.query;
  // Held statements, sent before the next one that is not; whether anything was sent yet.
  let held: unknown[] = [];
  let sentAny = false;
  // Savepoints open: inside one nothing is held. A held statement that failed would answer
  // its RELEASE, and knex does not roll back to a savepoint whose release failed: the outer
  // transaction would stay aborted, and its COMMIT silently roll back what it had written.
  let savepoints = 0;
  const answerNow = (done: Callback) => queueMicrotask(() => done(null, NOT_SENT));
  // A plain named statement goes as libs/db's preparedQuery, described once per connection;
  // a held one's rows are read by no one.
  const submit = (statement: unknown, answer: Callback, rowsUnread: boolean) => {
    const { name, text: sql, values: params } = statement as { name?: unknown; text: string; values?: unknown };
    if (
      typeof name !== 'string' ||
      !name ||
      connection.binary ||
      !plainNamed(statement as object) ||
      !(params === undefined || Array.isArray(params))
    )
      return send.call(connection, statement, answer);
    return send.call(connection, preparedQuery(connection, name, sql, params ?? [], answer, { rowsUnread }));
  };
  connection.pipeline = true;
  connection.query = function pipelined(config: unknown, values?: unknown, callback?: unknown) {
    const text = (config as { text?: unknown } | null)?.text;
    const done = (typeof values === 'function' ? values : callback) as Callback | undefined;
    // Only knex's own calls (a config object and a callback) are taken over.
    if (typeof text !== 'string' || !done) return send.call(connection, config, values, callback);
    if ((config as { name?: unknown }).name !== undefined) attempt.prepared = true;
    if (text.startsWith('SAVEPOINT ')) savepoints++;
    else if (text.startsWith('RELEASE SAVEPOINT ') || text.startsWith('ROLLBACK TO SAVEPOINT ')) savepoints--;
    const sentWithNext = savepoints === 0 && (config as Record<string, unknown>)[SENT_WITH_NEXT] === true;
    if (text === 'BEGIN;' && !sentAny && !held.length) {
      held.push(config);
      return answerNow(done);
    }
    if (sentWithNext) {
      // Its values converted now, as pg would when sending it: one pg cannot convert fails
      // this statement here, so the transaction rolls back. Found only when the next statement
      // is sent, nothing of it would reach PostgreSQL, and a COMMIT sent with it would commit
      // the transaction's other writes while answering its error.
      let converted: unknown;
      try {
        converted = convertedValues(config);
      } catch (err) {
        queueMicrotask(() => done(err as Error));
        return undefined;
      }
      held.push(converted);
      return answerNow(done);
    }
    // A rollback (of the transaction or to a savepoint) undoes every held statement: each
    // came after the last statement sent. Unsent, none can fail and take its place.
    if (text.startsWith('ROLLBACK')) {
      held = [];
      if (!sentAny) return answerNow(done);
    }
    // Nothing ran: there is nothing to commit.
    if (text === 'COMMIT;' && !sentAny && held.length === 1) {
      held = [];
      return answerNow(done);
    }
    const before = held;
    held = [];
    sentAny = true;
    if (!before.length) return submit(config, done, false);
    let failed: Error | null = null;
    const { stream } = connection.connection;
    stream.cork();
    try {
      for (const statement of before) submit(statement, (err: Error | null) => (failed ??= err), true);
      submit(config, (err: Error | null, result?: unknown) => done(failed ?? err, result), false);
    } finally {
      stream.uncork();
    }
    return undefined;
  };
  try {
    const tx = transactionOn(knex, client as unknown as KnexClientInternals, connection);
    if (prepare) preparing.add(tx.transactor);
    return await tx.run(fn);
  } finally {
    if (hadOwnQuery) connection.query = send;
    else delete (connection as Partial<PgClient>).query;
    connection.pipeline = false;
    await client.releaseConnection(connection);
  }
}

// The transaction `fn` gets: what `knex.transaction(fn, { connection })` gives it, built for less.
// knex builds every transaction a knex object of its own (makeKnex: a function with some
// 140 properties and closures, a client with its listeners), a visible share of a write's
// CPU. Here the parts that do not change from one transaction to the next are built once per
// knex client (`baseOf`) and each transaction's object inherits them: its own are the
// connection, the client and context that hold it, and its state. The statements, their
// events on the knex instance (`query`, `query-error`...), savepoints (knex's own nested
// transactions) and the transaction's end are knex's, as knex's Transaction runs them.
// Query builder methods added with `knex.QueryBuilder.extend` after a client's first
// transaction are not on its transactions (the code here extends none).

const require = createRequire(import.meta.url);
// knex 3's own parts (knex is pinned): what it makes a knex object of a client with, the
// timeout it puts on a ROLLBACK, and the counter its transaction ids come from.
const makeKnex = require('knex/lib/knex-builder/make-knex') as (client: object) => KnexObject;
const { timeout, KnexTimeoutError } = require('knex/lib/util/timeout') as {
  timeout<V>(promise: Promise<V>, ms: number): Promise<V>;
  KnexTimeoutError: new (message: string) => Error;
};
const uniqueId = createRequire(require.resolve('knex'))('lodash/uniqueId') as (prefix: string) => string;

const STATE = Symbol('firewatch.transaction');
const FORWARDED = ['start', 'query', 'query-error', 'query-response'] as const;
const COPIED = ['version', 'config', 'driver', 'connectionSettings', 'valueForUndefined', 'logger'] as const;

type Listener = (...args: unknown[]) => void;
interface Emitter {
  emit(event: string, ...args: unknown[]): boolean;
  on(event: string, listener: Listener): unknown;
  removeListener(event: string, listener: Listener): unknown;
}
/** A knex client as knex's transaction code uses it. */
interface KnexClientInternals extends Emitter {
  constructor: { prototype: object };
  query(connection: unknown, obj: unknown): Promise<unknown>;
  stream(connection: unknown, obj: unknown, stream: unknown, options: unknown): Promise<unknown>;
  [STATE]?: TransactionState;
  [key: string]: unknown;
}
/** A knex object as make-knex.js builds it. */
type KnexObject = Knex &
  Emitter & {
    context: Record<string | symbol, unknown> & { client: KnexClientInternals; queryBuilder(): Knex.QueryBuilder };
    _internalListeners: { eventName: string; listener: Listener }[];
    [STATE]?: TransactionState;
  };

/** What knex's nested transactions (savepoints) read of the transaction they are in. */
interface OuterTransaction {
  _lastChild: Promise<unknown>;
  isCompleted(): boolean;
  transactor: Knex.Transaction;
}

interface TransactionState {
  connection: PgClient;
  client: KnexClientInternals;
  transactor: Knex.Transaction;
  completed: boolean;
  outer?: OuterTransaction;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

interface Base {
  client: KnexClientInternals;
  transactor: KnexObject;
}
const bases = new WeakMap<object, Base>();

function completedError(): never {
  throw new Error('Transaction query already complete, run with DEBUG=knex:tx for more info');
}

/** `run`'s answer, as knex's transaction client answers a statement: only on its connection, and only before it ended. */
function onTransaction(txClient: KnexClientInternals, connection: unknown, run: () => Promise<unknown>): Promise<unknown> {
  const state = txClient[STATE]!;
  return new Promise((resolve, reject) => {
    try {
      if (connection !== state.connection) throw new Error('Invalid connection for transaction query.');
      if (state.completed) completedError();
      resolve(run());
    } catch (e) {
      reject(e);
    }
  });
}

/** The parts of every transaction of `client` that do not change (knex's makeTxClient and makeTransactor, once). */
function baseOf(knex: Knex, client: KnexClientInternals): Base {
  const found = bases.get(client);
  if (found) return found;
  const txClient = Object.create(client.constructor.prototype) as KnexClientInternals;
  // As knex copies them into each transaction's client, read when used.
  for (const key of COPIED) {
    Object.defineProperty(txClient, key, {
      get: () => client[key],
      set(this: object, value: unknown) {
        Object.defineProperty(this, key, { value, writable: true, enumerable: true, configurable: true });
      },
      enumerable: true,
      configurable: true,
    });
  }
  txClient.transacting = true;
  for (const event of FORWARDED) {
    // `this` is the transaction's client: its events go to its transaction object and to the knex instance's client.
    txClient.on(event, function (this: KnexClientInternals, ...args: unknown[]) {
      client.emit(event, ...args);
      (this[STATE]?.transactor as unknown as Emitter | undefined)?.emit(event, ...args);
    });
  }
  const { query, stream } = txClient;
  // Each statement runs on the transaction's connection, and none once it has ended.
  txClient.query = function (this: KnexClientInternals, connection: unknown, obj: unknown) {
    return onTransaction(this, connection, () => query.call(this, connection, obj));
  };
  txClient.stream = function (this: KnexClientInternals, connection: unknown, obj: unknown, out: unknown, options: unknown) {
    return onTransaction(this, connection, () => stream.call(this, connection, obj, out, options));
  };
  txClient.acquireConnection = function (this: KnexClientInternals) {
    return Promise.resolve(this[STATE]!.connection);
  };
  txClient.releaseConnection = () => Promise.resolve();

  const transactor = makeKnex(txClient);
  // Its events are each transaction's (above), not this shared object's.
  for (const { eventName, listener } of transactor._internalListeners) txClient.removeListener(eventName, listener);
  transactor._internalListeners = [];
  const context = transactor.context;
  context.withUserParams = () => {
    throw new Error('Cannot set user params on a transaction - it can only inherit params from main knex instance');
  };
  // A transaction inside: a savepoint, knex's nested transaction, with this one as its outer transaction.
  context.transaction = function (
    this: { client: KnexClientInternals; _transaction(container: unknown, config: unknown, outer: OuterTransaction): unknown },
    container: unknown,
    options?: { doNotRejectOnRollback?: boolean },
  ) {
    if (!options) options = { doNotRejectOnRollback: true };
    else if (options.doNotRejectOnRollback === undefined) options.doNotRejectOnRollback = true;
    return this._transaction(container, options, outerOf(this.client[STATE]!));
  };
  (transactor as unknown as { isTransaction: boolean }).isTransaction = true;
  const base = { client: txClient, transactor };
  bases.set(client, base);
  return base;
}

function outerOf(state: TransactionState): OuterTransaction {
  state.outer ??= { _lastChild: Promise.resolve(), isCompleted: () => state.completed, transactor: state.transactor };
  return state.outer;
}

// knex's Transaction#query: a statement of the transaction's own (BEGIN, COMMIT, ROLLBACK); `ends`
// 1 commits, 2 rolls back; the transaction's outcome is settled once it answered.
function statement(state: TransactionState, sql: string, ends?: 1 | 2, value?: unknown): Promise<unknown> {
  let status = ends;
  const q = state.client
    .query(state.connection, sql)
    .catch((err: unknown) => {
      status = 2;
      value = err;
      state.completed = true;
    })
    .then((res) => {
      if (status === 1) state.resolve(value);
      if (status === 2) {
        if (value === undefined) {
          if (/^ROLLBACK\b/i.test(sql)) {
            state.resolve(undefined);
            return;
          }
          value = new Error(`Transaction rejected with non-error: ${value}`);
        }
        state.reject(value);
      }
      return res;
    });
  if (status === 1 || status === 2) state.completed = true;
  return q;
}

const commit = (state: TransactionState, value: unknown) => statement(state, 'COMMIT;', 1, value);

function rollback(state: TransactionState, error: unknown): Promise<unknown> {
  return timeout(statement(state, 'ROLLBACK', 2, error), 5000).catch((err: unknown) => {
    if (!(err instanceof KnexTimeoutError)) return Promise.reject(err);
    state.reject(error);
  });
}

/** A transaction of `client` on `connection`, its object inheriting the parts every transaction shares. */
function transactionOn(knex: Knex, client: KnexClientInternals, connection: PgClient) {
  const base = baseOf(knex, client);
  const txClient = Object.create(base.client) as KnexClientInternals;
  // Listeners of its own: one added to a transaction's client is that transaction's only.
  const shared = base.client as unknown as { _events: Record<string, Listener | Listener[]>; _eventsCount: number };
  const events = Object.create(null) as Record<string, Listener | Listener[]>;
  for (const name in shared._events) {
    const listeners = shared._events[name]!;
    events[name] = Array.isArray(listeners) ? listeners.slice() : listeners;
  }
  Object.assign(txClient, { _events: events, _eventsCount: shared._eventsCount });
  const context = Object.create(base.transactor.context) as KnexObject['context'];
  context.client = txClient;
  // Read at each transaction, as knex does: the knex instance's may change.
  context.userParams = knex.userParams || {};
  // knex's own `knex(table)`.
  const transactor = function knex(tableName?: string, options?: unknown) {
    const { context: current } = transactor;
    const qb = current.queryBuilder();
    if (!tableName)
      (current.client.logger as { warn(m: string): void }).warn(
        'calling knex without a tableName is deprecated. Use knex.queryBuilder() instead.',
      );
    return tableName ? qb.table(tableName, options as never) : qb;
  } as unknown as KnexObject;
  Object.setPrototypeOf(transactor, base.transactor);
  transactor.context = context;
  // An emitter of its own (knex's transactor is one).
  (transactor as unknown as { _events: unknown; _eventsCount: number })._events = Object.create(null);
  (transactor as unknown as { _events: unknown; _eventsCount: number })._eventsCount = 0;
  let resolve!: (value: unknown) => void;
  let reject!: (reason: unknown) => void;
  const execution = new Promise<unknown>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  const state: TransactionState = {
    connection,
    client: txClient,
    transactor: transactor as unknown as Knex.Transaction,
    completed: false,
    resolve,
    reject,
  };
  txClient[STATE] = state;
  transactor[STATE] = state;
  // Closures of this transaction's, as knex's are: `.then(trx.commit).catch(trx.rollback)` works.
  Object.assign(transactor, {
    commit: (value?: unknown) => commit(state, value),
    rollback: (error?: unknown) => rollback(state, error),
    isCompleted: () => state.completed,
    savepoint: (container: unknown, options: unknown) =>
      (transactor.transaction as (container: unknown, config: unknown) => unknown)(container, options),
  });
  (transactor as unknown as Knex.Transaction).executionPromise = execution as Promise<never>;
  (connection as unknown as { __knexTxId?: string }).__knexTxId = uniqueId('trx');
  return {
    transactor: state.transactor,
    /** As knex's Transaction runs its container: BEGIN, `fn`, then COMMIT with its value, or ROLLBACK with its error. */
    run<T>(fn: (tx: Knex.Transaction) => Promise<T>): Promise<T> {
      statement(state, 'BEGIN;')
        .then(() => {
          let result: unknown;
          try {
            result = fn(state.transactor);
          } catch (err) {
            result = Promise.reject(err);
          }
          if (result && typeof (result as Promise<T>).then === 'function') {
            (result as Promise<T>).then((value) => commit(state, value)).catch((err: unknown) => rollback(state, err));
          }
        })
        .catch((err: unknown) => state.reject(err));
      return execution as Promise<T>;
    },
  };
}
