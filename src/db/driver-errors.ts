// The fields a driver's error carries, read without trusting its shape.

/**
 * pg's message for a query sent and not answered in time (`query_timeout`): the connection is
 * dropped, and the request is answered 503 (unavailable.ts).
 */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

export function codeOf(error: unknown): unknown {
  return error !== null && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
}

export function messageOf(error: unknown): string {
  const message = error !== null && typeof error === 'object' ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : '';
}
