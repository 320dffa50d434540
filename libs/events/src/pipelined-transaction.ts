import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

type Callback = (err: Error | null, result?: unknown) => void;

/** The parts of a node-postgres client (knex's pg connection) this uses. */
interface PgClient {
  query(config: unknown, values?: unknown, callback?: unknown): unknown;
  pipeline: boolean;
  connection: { stream: { cork(): void; uncork(): void } };
}

interface KnexPgClient {
  dialect?: string;
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
 * run answers.
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
 * instead of queued, and run in the same order.
 */
export async function pipelinedTransaction<T>(knex: Knex, fn: (tx: Knex.Transaction) => Promise<T>): Promise<T> {
  const client = knex.client as unknown as KnexPgClient;
  if (client.dialect !== 'postgresql') return knex.transaction(fn);
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
    if ((text === 'BEGIN;' && !sentAny && !held.length) || sentWithNext) {
      held.push(config);
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
    if (!before.length) return send.call(connection, config, done);
    let failed: Error | null = null;
    const { stream } = connection.connection;
    stream.cork();
    try {
      for (const statement of before) send.call(connection, statement, (err: Error | null) => (failed ??= err));
      send.call(connection, config, (err: Error | null, result?: unknown) => done(failed ?? err, result));
    } finally {
      stream.uncork();
    }
    return undefined;
  };
  try {
    return await knex.transaction(
      (tx) => {
        if (prepare) preparing.add(tx);
        return fn(tx);
      },
      { connection },
    );
  } finally {
    if (hadOwnQuery) connection.query = send;
    else delete (connection as Partial<PgClient>).query;
    connection.pipeline = false;
    await client.releaseConnection(connection);
  }
}
