import pg from 'pg';

/** The part of pg's protocol connection (what pg hands a submitted query) an execution writes to. */
interface ProtocolConnection {
  parsedStatements: Record<string, string | undefined>;
  submittedNamedStatements: Record<string, string | undefined>;
  stream: { cork?(): void; uncork?(): void };
  parse(config: { text: string; name: string }): void;
  bind(config: { statement: string; values: readonly unknown[] }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(): void;
  sync(): void;
}

/** A pg client as {@link executePrepared} uses it: pg's `Submittable` queries, and its type parsers. */
export interface PreparedClient {
  query(submittable: object): unknown;
  getTypeParser(oid: number, format?: string): unknown;
}

/** pg's Result: a statement's answer, and as a statement's row shape its fields, parsers and row template from one RowDescription. */
interface PgResult {
  command: string | null;
  rowCount: number | null;
  oid: number | null;
  rows: unknown[];
  fields: unknown[];
  addFields(fields: unknown[]): void;
  addCommandComplete(msg: { text?: string }): void;
  parseRow(fields: unknown[]): unknown;
}
type Shape = PgResult;
// Its types leave out what pg's Query calls; the client stands for the type parsers, as pg's Query passes them.
const ResultOf = pg.Result as unknown as new (rowMode: undefined, types: PreparedClient) => PgResult;
// pg's own conversion of a parameter (null, Buffer, Date, array, toPostgres, JSON...), which its Query binds with.
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils;
// A subclass of pg's Query: pg refuses other Submittables on a connection in pipeline mode
// (they may keep a portal open across round trips, which this never does). Its constructor,
// given only the text, copies no query config; every handler pg calls is this class's own.
const QueryBase = pg.Query as unknown as new (text: string) => object;

// What each server connection has described, by statement name. A prepared statement's
// result columns cannot change on its connection (PostgreSQL refuses to run it instead,
// SQLSTATE 0A000), so the first description holds until the statement is parsed again.
const shapesOf = new WeakMap<ProtocolConnection, Map<string, Shape>>();

/** What a {@link preparedQuery} answers: pg's Result, as knex reads it. */
export type PreparedResult = Pick<PgResult, 'command' | 'rowCount' | 'oid' | 'rows' | 'fields'>;

/** Options of a {@link preparedQuery}. */
export interface PreparedQueryOptions {
  /** Its rows are read by no one (a statement whose answer its caller does not await): they are not parsed. */
  rowsUnread?: boolean;
}

/**
 * One execution of a named statement, submitted to a pg client as pg's own `Query` would
 * send it (Parse when the connection has not parsed it, Bind, Execute, Sync in one
 * write), except that a statement this connection described before is not described
 * again: pg's `Query` asks PostgreSQL for every execution's RowDescription and builds the
 * row parsers from it anew. Rows are pg's (its Result parses them with the same parsers
 * and template), so they are the objects pg's `Query` gives.
 */
class PreparedExecution extends QueryBase {
  /** Set by the caller; pg's client wraps it when a query timeout is configured. */
  callback: (err: Error | null, result?: PreparedResult) => void;
  private shape: Shape | undefined;
  private shapes: Map<string, Shape> | undefined;
  private described = false;
  // pg's Query's own Result (its constructor makes one): the answer.
  declare private readonly _result: PgResult;
  private failure: Error | undefined;

  constructor(
    private readonly client: PreparedClient,
    readonly name: string,
    readonly text: string,
    private readonly params: readonly unknown[],
    private readonly rowsUnread: boolean,
    callback: (err: Error | null, result?: PreparedResult) => void,
  ) {
    super(text);
    this.callback = callback;
  }

  submit(connection: ProtocolConnection): Error | null {
    const previous = connection.parsedStatements[this.name] ?? connection.submittedNamedStatements[this.name];
    if (previous !== undefined && previous !== this.text)
      return new Error(`Prepared statements must be unique - '${this.name}' was used for a different statement`);
    let values: unknown[];
    try {
      // Before anything is written: a value pg cannot convert fails the statement alone, as pg's Query fails it.
      values = this.params.map(prepareValue);
    } catch (err) {
      return err as Error;
    }
    let shapes = shapesOf.get(connection);
    if (!shapes) shapesOf.set(connection, (shapes = new Map()));
    this.shapes = shapes;
    if (previous === undefined) shapes.delete(this.name);
    else this.shape = shapes.get(this.name);
    connection.stream.cork?.();
    try {
      if (previous === undefined) {
        connection.parse({ text: this.text, name: this.name });
        connection.submittedNamedStatements[this.name] = this.text;
      }
      connection.bind({ statement: this.name, values });
      if (!this.shape) {
        connection.describe({ type: 'P', name: '' });
        this.described = true;
      }
      connection.execute();
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(msg: { fields: unknown[] }): void {
    const shape = new ResultOf(undefined, this.client);
    shape.addFields(msg.fields);
    this.shape = shape;
    this.shapes!.set(this.name, shape);
  }

  handleDataRow(msg: { fields: unknown[] }): void {
    // Rows nobody reads are not checked either: a failure made here, after PostgreSQL ran the
    // statement, would fail a COMMIT that PostgreSQL carried out, and the write would be retried.
    if (this.failure || this.rowsUnread) return;
    // Behind a transaction-mode pooler the name may reach a server connection on which the
    // statement was parsed again after a migration, with no 0A000: its rows then differ from
    // the description kept here. A column added or dropped is seen by the count and answered
    // as PostgreSQL answers a stale plan; a column's type changed in place is not
    // (docs/resource-kit.md).
    if (msg.fields.length !== this.shape!.fields.length) {
      this.failure = Object.assign(new Error('cached plan must not change result type (a row of another shape than described)'), {
        code: '0A000',
      });
      return;
    }
    try {
      this._result.rows.push(this.shape!.parseRow(msg.fields));
    } catch (err) {
      this.failure = err as Error;
    }
  }

  handleCommandComplete(msg: { text?: string }): void {
    // Described, and PostgreSQL answered NoData (which pg does not pass on): a statement without result columns.
    if (this.described && !this.shape) {
      this.shape = new ResultOf(undefined, this.client);
      this.shape.addFields([]);
      this.shapes!.set(this.name, this.shape);
    }
    this._result.addCommandComplete(msg);
  }

  handleEmptyQuery(): void {}

  handleError(err: Error): void {
    // Whatever failed, the next execution describes the statement again.
    this.shapes?.delete(this.name);
    const failure = this.failure ?? err;
    this.failure = undefined;
    this.callback(failure);
  }

  handleReadyForQuery(): void {
    if (this.failure) return this.handleError(this.failure);
    if (this.shape) this._result.fields = this.shape.fields;
    try {
      this.callback(null, this._result);
    } catch (err) {
      // As pg's Query: a callback's throw is not the connection's.
      process.nextTick(() => {
        throw err;
      });
    }
  }
}

/**
 * A pg `Submittable` running the prepared statement `name` (whose SQL is `text`) with
 * `values`, converted as pg converts them: `callback` gets what `client.query({ name, text,
 * values }, callback)` gives it (pg's Result: `command`, `rowCount`, `oid`, `rows`, `fields`,
 * or pg's error), except that PostgreSQL is asked to describe the result only once per
 * connection, and the row parsers are the ones `client` gave at that description (a type
 * parser set later reaches the statement once its connection describes it again). Pass it
 * to `client.query`; it may go on a connection in pipeline mode.
 */
export function preparedQuery(
  client: PreparedClient,
  name: string,
  text: string,
  values: readonly unknown[],
  callback: (err: Error | null, result?: PreparedResult) => void,
  options: PreparedQueryOptions = {},
): object {
  return new PreparedExecution(client, name, text, values, options.rowsUnread === true, callback);
}

/**
 * The rows of the prepared statement `name` (whose SQL is `text`) run with `values` on
 * `client`: as `client.query({ name, text, values })` answers them, without asking
 * PostgreSQL to describe the result again once this connection has described it.
 */
export function executePrepared(client: PreparedClient, name: string, text: string, values: readonly unknown[]) {
  return new Promise<unknown[]>((resolve, reject) => {
    client.query(
      preparedQuery(client, name, text, values, (err, result) => {
        if (err) {
          // As pg's query promise does: a stack leading back here, not to the socket's read.
          Error.captureStackTrace(err);
          reject(err);
        } else resolve(result!.rows);
      }),
    );
  });
}
