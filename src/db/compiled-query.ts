// For the few queries on every request's path (the token check, a cached view's version
// check): build and compile the query once, then run it with new parameter values. Kysely
// would otherwise rebuild and recompile the same SQL on each call, which costs more than
// running it.
import type { Compilable, Kysely } from 'kysely';

/**
 * `build` receives placeholder values and returns the query; the returned function runs the
 * same SQL with the real values, given in the same order as the placeholders.
 */
export function compileOnce<P extends unknown[], R>(db: Kysely<any>, build: (...placeholders: P) => Compilable<R>, ...placeholders: P) {
  const compiled = build(...placeholders).compile();
  const positions = placeholders.map((placeholder) => {
    const index = compiled.parameters.indexOf(placeholder);
    if (index === -1 || compiled.parameters.lastIndexOf(placeholder) !== index) {
      throw new Error(`compileOnce: placeholder ${String(placeholder)} must appear exactly once in the query`);
    }
    return index;
  });
  return async (...values: P): Promise<R[]> => {
    const parameters = [...compiled.parameters];
    positions.forEach((position, i) => {
      parameters[position] = values[i];
    });
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  };
}
