// The rows of a subquery as one JSON value, each row an array of its columns in the order
// given: [[1, "Home", …], …]. For a tree read in one statement whose rows are many and wide
// (the profile detail's items): an array of objects repeats every column's name in every row,
// which the database writes, the connection carries and the service parses again (a seeded
// profile's 50 items with their list entries: 25.7 KB as objects, about 9 KB as arrays). The
// value arrives parsed (PostgreSQL's json) or as its text (SQLite), in the subquery's order.
import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Dialect } from './database.ts';

export type JsonTuples = unknown[][] | string;

export function jsonTuplesFrom(dialect: Dialect, query: Expression<unknown>, columns: readonly string[]): RawBuilder<JsonTuples> {
  const values = sql.join(columns.map((column) => sql.ref(`agg.${column}`)));
  return dialect === 'postgres'
    ? sql<JsonTuples>`(select coalesce(json_agg(json_build_array(${values})), '[]') from ${query} as agg)`
    : sql<JsonTuples>`(select coalesce(json_group_array(json_array(${values})), '[]') from ${query} as agg)`;
}

/** The tuples as they arrived (parsed or text). */
export function tuplesOf(value: JsonTuples | null): unknown[][] {
  if (value === null) return [];
  return typeof value === 'string' ? (JSON.parse(value) as unknown[][]) : value;
}
