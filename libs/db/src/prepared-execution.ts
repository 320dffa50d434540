import pg from 'pg';

/** The part of pg's protocol connection (what pg hands a submitted query) an execution writes to. */
interface ProtocolConnection {
  parsedStatements: Record<string, string | undefined>;
  submittedNamedStatements: Record<string, string | undefined>;
  stream: { cork?(): void; uncork?(): void };
  parse(config: { text: string; name: string }): void;
  bind(config: { statement: string; values: readonly string[] }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(): void;
  sync(): void;
}

/** A pg client as {@link executePrepared} uses it: pg's `Submittable` queries, and its type parsers. */
export interface PreparedClient {
  query(submittable: object): unknown;
  getTypeParser(oid: number, format?: string): unknown;
}

/** pg's Result, as a statement's row shape: its fields, parsers and row template, built from one RowDescription. */
interface Shape {
  fields: unknown[];
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): unknown;
}
// Its types leave out what pg's Query calls; the client stands for the type parsers, as pg's Query passes them.
const ShapeOf = pg.Result as unknown as new (rowMode: undefined, types: PreparedClient) => Shape;

// What each server connection has described, by statement name. A prepared statement's
// result columns cannot change on its connection (PostgreSQL refuses to run it instead,
// SQLSTATE 0A000), so the first description holds until the statement is parsed again.
const shapesOf = new WeakMap<ProtocolConnection, Map<string, Shape>>();

/**
 * One execution of a named statement, submitted to a pg client as pg's own `Query` would
 * send it (Parse when the connection has not parsed it, Bind, Execute, Sync in one
 * write), except that a statement this connection described before is not described
 * again: pg's `Query` asks PostgreSQL for every execution's RowDescription and builds the
 * row parsers from it anew. Rows are pg's (its Result parses them with the same parsers
 * and template), so they are the objects pg's `Query` gives.
 */
class PreparedExecution {
  /** Set by the caller; pg's client wraps it when a query timeout is configured. */
  callback: (err: Error | null, rows?: unknown[]) => void = () => {};
  private shape: Shape | undefined;
  private shapes: Map<string, Shape> | undefined;
  private readonly rows: unknown[] = [];
  private failure: Error | undefined;

  constructor(
    private readonly client: PreparedClient,
    readonly name: string,
    readonly text: string,
    private readonly values: readonly string[],
  ) {}

  submit(connection: ProtocolConnection): Error | null {
    const previous = connection.parsedStatements[this.name] ?? connection.submittedNamedStatements[this.name];
    if (previous !== undefined && previous !== this.text)
      return new Error(`Prepared statements must be unique - '${this.name}' was used for a different statement`);
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
      connection.bind({ statement: this.name, values: this.values });
      if (!this.shape) connection.describe({ type: 'P', name: '' });
      connection.execute();
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(msg: { fields: unknown[] }): void {
    const shape = new ShapeOf(undefined, this.client);
    shape.addFields(msg.fields);
    this.shape = shape;
    this.shapes!.set(this.name, shape);
  }

  handleDataRow(msg: { fields: unknown[] }): void {
    if (this.failure) return;
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
      this.rows.push(this.shape!.parseRow(msg.fields));
    } catch (err) {
      this.failure = err as Error;
    }
  }

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  handleError(err: Error): void {
    // Whatever failed, the next execution describes the statement again.
    this.shapes?.delete(this.name);
    const failure = this.failure ?? err;
    this.failure = undefined;
    this.callback(failure);
  }

  handleReadyForQuery(): void {
    if (this.failure) this.handleError(this.failure);
    else this.callback(null, this.rows);
  }
}

/**
 * The rows of the prepared statement `name` (whose SQL is `text`) run with `values` on
 * `client`: as `client.query({ name, text, values })` answers them, without asking
 * PostgreSQL to describe the result again once this connection has described it.
 */
export function executePrepared(client: PreparedClient, name: string, text: string, values: readonly (string | number | boolean)[]) {
  // pg's prepareValue of a string, number or boolean is its toString().
  const execution = new PreparedExecution(client, name, text, values.map(String));
  return new Promise<unknown[]>((resolve, reject) => {
    execution.callback = (err, rows) => {
      if (err) {
        // As pg's query promise does: a stack leading back here, not to the socket's read.
        Error.captureStackTrace(err);
        reject(err);
      } else resolve(rows!);
    };
    client.query(execution);
  });
}
