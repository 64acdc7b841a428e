// "The database is away": the one place that tells a database that cannot be reached or
// does not answer (try again shortly: 503) from a query that failed (a bug: 500).
import type { ApiMessageKey } from '../i18n/catalogues.ts';
import { NETWORK_ERROR_CODES } from '../network-errors.ts';
import { QUERY_READ_TIMEOUT } from './driver-errors.ts';

/** What a request that needed the database is answered meanwhile: 503 with this body and Retry-After. */
export const DATABASE_UNAVAILABLE = 'errors.databaseUnavailable' satisfies ApiMessageKey;
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** pg's and pg-pool's own messages for a broken, closed, refused or silent connection. */
const DRIVER_MESSAGES = [
  'Connection terminated', // also "… unexpectedly" and "… due to connection timeout"
  'timeout exceeded when trying to connect', // no free pooled connection in time
  'timeout expired', // connecting took too long
  QUERY_READ_TIMEOUT, // sent, never answered
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Postgres connection has been discarded', // Kysely: a connection whose rollback failed
];

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception); 57P01–57P03 (shut down, crashed,
 * starting up); 53300 (too many connections). 57014 (query cancelled) only when our
 * statement_timeout cancelled it.
 */
function isUnavailableSqlState(code: string, message: string): boolean {
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
  return code === '57014' && message.includes('statement timeout');
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_ERROR_CODES.has(code)) return true;
    // SQLite: still locked by another connection after busy_timeout.
    if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code, error.message)) return true;
  }
  if (DRIVER_MESSAGES.some((message) => error.message.startsWith(message))) return true;
  // Connecting to every address of a host name fails as one AggregateError; wrappers keep a cause.
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(error.cause, depth + 1);
}
