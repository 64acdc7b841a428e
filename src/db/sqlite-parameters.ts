// Bound values out of the SQLite planner's sight. SQLite as better-sqlite3 builds it
// (SQLITE_ENABLE_STAT4) plans a statement again at every run when it joins tables and compares a
// bound value with a column, in case the value calls for another plan: a lookup of a list entry
// with its app user (a join of five tables by primary keys) took 16 µs that way and 2 µs planned
// once; a profile's tree 110 µs to plan and 90 µs to run. A unary plus (`+?`) leaves the value as
// it is (SQLite's `+` changes no value, type or affinity) and the planner no longer looks at it,
// so each statement is planned once, when it is prepared. Plans do not depend on bound values
// here anyway: the service never runs ANALYZE, so there are no samples to compare them with,
// and its one LIKE (the operators' search) matches anywhere, so no prefix could use an index.
//
// The rewrite runs once per statement text (the statement cache's miss), not per query.

/** `sqlText` with each bound parameter (`?`, `?NNN`) outside string literals, quoted identifiers and comments written `+?`. */
export function unplannedParameters(sqlText: string): string {
  let out = '';
  let i = 0;
  while (i < sqlText.length) {
    const c = sqlText[i]!;
    const close = c === "'" ? "'" : c === '"' ? '"' : c === '`' ? '`' : c === '[' ? ']' : undefined;
    if (close) {
      // A doubled quote inside is the quote itself: the scan leaves and re-enters the literal.
      const end = sqlText.indexOf(close, i + 1);
      const stop = end === -1 ? sqlText.length : end + 1;
      out += sqlText.slice(i, stop);
      i = stop;
    } else if (c === '-' && sqlText[i + 1] === '-') {
      const end = sqlText.indexOf('\n', i);
      const stop = end === -1 ? sqlText.length : end;
      out += sqlText.slice(i, stop);
      i = stop;
    } else if (c === '/' && sqlText[i + 1] === '*') {
      const end = sqlText.indexOf('*/', i + 2);
      const stop = end === -1 ? sqlText.length : end + 2;
      out += sqlText.slice(i, stop);
      i = stop;
    } else {
      out += c === '?' ? '+?' : c;
      i++;
    }
  }
  return out;
}
