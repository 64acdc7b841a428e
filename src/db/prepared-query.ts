// For the queries on a hot path (the token check, the writes of an item create): the query is
// built and compiled once, then the same SQL runs with new values. Kysely would otherwise
// rebuild and recompile it at every call, which costs more than SQLite takes to run it (about
// half of an item create's CPU time went to building its six queries).
//
// The query is written as usual, with named parameters where values go:
//
//   const findTopic = preparedQuery((db, p: { accountId: number; id: number }) =>
//     db.selectFrom('topics').selectAll().where('id', '=', p.id).where('account_id', '=', p.accountId));
//   const rows = await findTopic(trx, { accountId, id });
//
// Each `p.<name>` is a marker object that Kysely carries into the compiled parameters like any
// value; the compiled query's markers are then replaced by the call's values, by name. The
// SQL each hot query compiles to is asserted per dialect in test/db/prepared-queries.test.ts.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/** Where a named value goes in a prepared query's parameters. */
class Parameter {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** Markers for any parameter names the query reads (typed as the values they stand for). */
function markers<P>(): P {
  return new Proxy({}, { get: (_target, name) => new Parameter(String(name)) }) as P;
}

/** The compiled query, and a function that puts a call's values in place of its markers. */
export function prepare<P extends object, R>(
  query: Compilable<R>,
): { sql: string; parameters: readonly unknown[]; bind: (values: P) => CompiledQuery<R> } {
  const compiled = query.compile();
  const slots = compiled.parameters.flatMap((value, index) => (value instanceof Parameter ? [{ index, name: value.name as keyof P }] : []));
  return {
    sql: compiled.sql,
    parameters: compiled.parameters.map((value) => (value instanceof Parameter ? `:${value.name}` : value)),
    bind(values) {
      const parameters = [...compiled.parameters];
      for (const { index, name } of slots) parameters[index] = values[name];
      return { ...compiled, parameters } as CompiledQuery<R>;
    },
  };
}

export type PreparedQuery<P, R> = ((db: Kysely<Database>, values: P) => Promise<R[]>) & {
  /** The SQL and parameters (`:name` for the named ones) on `db`'s dialect, as tests assert them. */
  render(db: Kysely<Database>): { sql: string; parameters: readonly unknown[] };
};

/**
 * A query that runs on whatever executor it is given (a transaction, a held connection),
 * compiled at its first run, once per dialect.
 */
export function preparedQuery<P extends object, R>(build: (db: Kysely<Database>, params: P) => Compilable<R>): PreparedQuery<P, R> {
  // Keyed by the dialect's adapter, which a Kysely instance shares with its transactions
  // (one entry per dialect the process uses: in practice one).
  const byDialect = new Map<unknown, ReturnType<typeof prepare<P, R>>>();
  const preparedFor = (db: Kysely<Database>) => {
    const dialect = db.getExecutor().adapter;
    let prepared = byDialect.get(dialect);
    if (!prepared) {
      prepared = prepare<P, R>(build(db, markers<P>()));
      byDialect.set(dialect, prepared);
    }
    return prepared;
  };
  const run = async (db: Kysely<Database>, values: P): Promise<R[]> => (await db.executeQuery(preparedFor(db).bind(values))).rows;
  return Object.assign(run, { render: (db: Kysely<Database>) => ({ sql: preparedFor(db).sql, parameters: preparedFor(db).parameters }) });
}

/**
 * A query run as a prepared statement of the connection (`Db.executePrepared`: on PostgreSQL a
 * named statement, parsed and planned once per connection). `name` names the statement: one
 * name per query in the whole program.
 */
export function preparedStatement<P extends object, R>(db: Db, name: string, build: (params: P) => Compilable<R>) {
  const prepared = prepare<P, R>(build(markers<P>()));
  return Object.assign((values: P): Promise<R[]> => db.executePrepared<R>(name, prepared.bind(values)), {
    render: () => ({ sql: prepared.sql, parameters: prepared.parameters }),
  });
}

/**
 * `preparedStatement` for a query kept at module level: compiled for each `Db` at its first run
 * there. `name` names the statement: one name per query in the whole program.
 */
export function namedStatement<P extends object, R>(name: string, build: (db: Db, params: P) => Compilable<R>) {
  const byDb = new WeakMap<Db, ReturnType<typeof prepare<P, R>>>();
  const preparedFor = (db: Db) => {
    let prepared = byDb.get(db);
    if (!prepared) {
      prepared = prepare<P, R>(build(db, markers<P>()));
      byDb.set(db, prepared);
    }
    return prepared;
  };
  return Object.assign((db: Db, values: P): Promise<R[]> => db.executePrepared<R>(name, preparedFor(db).bind(values)), {
    render: (db: Db) => ({ sql: preparedFor(db).sql, parameters: preparedFor(db).parameters }),
  });
}
