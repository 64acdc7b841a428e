// Named statements (`Db.executePrepared`) on a pg client, without pg's per-execution work.
// pg's Query asks the server to describe the result on every execution (Describe), builds
// the result's field parsers again from that description, and wraps itself in a copied
// configuration and a Result. The columns of a named statement cannot change on its
// connection (the server refuses to run a prepared plan whose result type changed), so here
// they are described by the first execution on a connection and kept with the connection.
// Later executions send Bind, Execute and Sync only. This is the token check's path (every
// authenticated request) and the list item creates': the service's CPU per batch is what it
// saves. pg runs it as a custom query (its `Submittable`: what pg-cursor is built on).
import type pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import type { AnswerDeadlines, AwaitedAnswer } from './answer-deadlines.ts';

type Parser = (value: string) => unknown;
type TypeParserOf = (oid: number) => Parser;

/** A statement's columns as the connection described them. */
interface Columns {
  names: string[];
  parsers: Parser[];
  /** A row with every column null: copying it gives each row the same shape. */
  empty: Record<string, unknown>;
}

/** The parts of pg's connection this uses, beyond its public type (the statements pg saw parsed). */
interface ClientConnection extends pg.Connection {
  parsedStatements: Record<string, string | undefined>;
}

interface RowDescription {
  fields: { name: string; dataTypeID: number }[];
}

const describedOn = new WeakMap<pg.Connection, Map<string, Columns>>();

class PreparedExecution<R> implements pg.Submittable, AwaitedAnswer {
  readonly rows: R[] = [];
  readonly startedAt = performance.now();
  readonly name: string;
  /** pg records it as the statement's text once the server has parsed it. */
  readonly text: string;
  /** Always called through the field: pg wraps it when a client has a query timeout, and giveUp silences it. */
  callback: (error: Error | null, rows?: R[]) => void;
  readonly #values: readonly unknown[];
  readonly #typeParser: TypeParserOf;
  #columns: Columns | undefined;
  #described: Map<string, Columns> | undefined;

  constructor(
    name: string,
    text: string,
    values: readonly unknown[],
    typeParser: TypeParserOf,
    callback: (error: Error | null, rows?: R[]) => void,
  ) {
    this.name = name;
    this.text = text;
    this.#values = values;
    this.#typeParser = typeParser;
    this.callback = callback;
  }

  submit(connection: pg.Connection): void {
    const known = connection as ClientConnection;
    let described = describedOn.get(connection);
    if (!described) {
      described = new Map();
      describedOn.set(connection, described);
    }
    this.#described = described;
    this.#columns = described.get(this.name);
    // The messages go to the socket as one write.
    known.stream.cork();
    try {
      if (known.parsedStatements[this.name] === undefined) {
        known.parse({ name: this.name, text: this.text, types: [] }, true);
      }
      known.bind({ statement: this.name, values: this.#values.map(pgUtils.prepareValue) }, true);
      if (!this.#columns) known.describe({ type: 'P', name: '' }, true);
      known.execute({ portal: '' }, true);
      known.sync();
    } finally {
      known.stream.uncork();
    }
  }

  handleRowDescription(message: RowDescription): void {
    const names = message.fields.map((field) => field.name);
    const empty: Record<string, unknown> = {};
    for (const name of names) empty[name] = null;
    this.#columns = { names, parsers: message.fields.map((field) => this.#typeParser(field.dataTypeID)), empty };
    this.#described!.set(this.name, this.#columns);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const { names, parsers, empty } = this.#columns!;
    const row: Record<string, unknown> = { ...empty };
    const fields = message.fields;
    for (let i = 0; i < fields.length; i++) {
      const value = fields[i];
      if (value !== null && value !== undefined) row[names[i]!] = parsers[i]!(value);
    }
    this.rows.push(row as R);
  }

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  /** pg calls this once, and then no other handler: the client drops the query on an error. */
  handleError(error: Error): void {
    this.callback(error);
  }

  handleReadyForQuery(): void {
    this.callback(null, this.rows);
  }

  /** No answer in time: fails now, and whatever the connection says later is ignored. */
  giveUp(error: Error): void {
    const callback = this.callback;
    this.callback = () => {};
    callback(error);
  }
}

/**
 * Runs the named statement `name` (its SQL `text`) on `client`: the rows, as pg would give them.
 * With `deadlines`, it fails with 'Query read timeout' when no answer came in time; the caller
 * must then drop the connection, which may still be busy with the statement.
 */
export function executePrepared<R>(
  client: pg.PoolClient,
  name: string,
  text: string,
  values: readonly unknown[],
  typeParser: TypeParserOf,
  deadlines?: AnswerDeadlines,
): Promise<R[]> {
  return new Promise((resolve, reject) => {
    const execution: PreparedExecution<R> = new PreparedExecution<R>(name, text, values, typeParser, (error, rows) => {
      deadlines?.delete(execution);
      if (error) reject(error);
      else resolve(rows!);
    });
    deadlines?.add(execution);
    client.query(execution);
  });
}
