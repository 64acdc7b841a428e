// For the queries on a hot path (the token check, the writes of an item create): build and
// compile the query once, then run the same SQL with new parameter values. Kysely would
// otherwise rebuild and recompile the same SQL on each call, which costs more than SQLite
// takes to run it (about half of an item create's CPU time went to building its six queries).
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/** The compiled query with new values in place of the placeholders. */
type Template<P extends unknown[], R> = (values: P) => CompiledQuery<R>;

function template<P extends unknown[], R>(query: Compilable<R>, placeholders: P): Template<P, R> {
  const compiled = query.compile();
  const positions = placeholders.map((placeholder) => {
    const index = compiled.parameters.indexOf(placeholder);
    if (index === -1 || compiled.parameters.lastIndexOf(placeholder) !== index) {
      throw new Error(`compiled query: placeholder ${String(placeholder)} must appear exactly once in the query`);
    }
    return index;
  });
  return (values) => {
    const parameters = [...compiled.parameters];
    for (let i = 0; i < positions.length; i++) parameters[positions[i]!] = values[i];
    return { ...compiled, parameters };
  };
}

/**
 * `build` receives placeholder values and returns the query; the returned function runs the
 * same SQL with the real values, given in the same order as the placeholders, as a prepared
 * statement of the pool (`Db.executePrepared`). `name` names the prepared statement: one name
 * per query in the whole program.
 */
export function compileOnce<P extends unknown[], R>(db: Db, name: string, build: (...placeholders: P) => Compilable<R>, ...placeholders: P) {
  const query = template(build(...placeholders), placeholders);
  return (...values: P): Promise<R[]> => db.executePrepared<R>(name, query(values));
}

/**
 * Like `compileOnce`, for queries that run on whatever executor they are given (a transaction,
 * a held connection): the query is compiled at its first run, once per dialect. Placeholders
 * must be distinct from each other and from the query's constant values (checked).
 */
export function compiledQuery<P extends unknown[], R>(build: (db: Kysely<Database>, ...placeholders: P) => Compilable<R>, ...placeholders: P) {
  // Keyed by the dialect's adapter, which a Kysely instance shares with its transactions
  // (one entry per dialect the process uses: in practice one).
  const byDialect = new Map<unknown, Template<P, R>>();
  return async (db: Kysely<Database>, ...values: P): Promise<R[]> => {
    const dialect = db.getExecutor().adapter;
    let query = byDialect.get(dialect);
    if (!query) byDialect.set(dialect, query = template(build(db, ...placeholders), placeholders));
    return (await db.executeQuery(query(values))).rows;
  };
}
