// Opens the database DATABASE_URL names, in a file of its own so that database.ts (the `Db`
// interface every database implements) imports no implementation of it.
import type { DatabaseOptions, Db } from './database.ts';
import { openPostgres } from './postgres.ts';
import { openSqlite } from './sqlite.ts';

export function openDatabase(url: string, options: DatabaseOptions = {}): Db {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), options);
  return openPostgres(url, options);
}
