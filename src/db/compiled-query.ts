// For the few queries on every request's path (the token check): build and compile the query
// once, then run it as a prepared statement with new parameter values. Kysely would otherwise
// rebuild and recompile the same SQL on each call, and PostgreSQL would parse and plan it
// again, which costs more than running it.
import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database.ts';

/**
 * `build` receives placeholder values and returns the query; the returned function runs the
 * same SQL with the real values, given in the same order as the placeholders. `name` names the
 * prepared statement: one name per query in the whole program.
 */
export function compileOnce<P extends unknown[], R>(db: Db, name: string, build: (...placeholders: P) => Compilable<R>, ...placeholders: P) {
  const compiled = build(...placeholders).compile();
  const positions = placeholders.map((placeholder) => {
    const index = compiled.parameters.indexOf(placeholder);
    if (index === -1 || compiled.parameters.lastIndexOf(placeholder) !== index) {
      throw new Error(`compileOnce: placeholder ${String(placeholder)} must appear exactly once in the query`);
    }
    return index;
  });
  return (...values: P): Promise<R[]> => {
    const parameters = [...compiled.parameters];
    positions.forEach((position, i) => {
      parameters[position] = values[i];
    });
    return db.executePrepared<R>(name, { ...compiled, parameters } as CompiledQuery<R>);
  };
}
