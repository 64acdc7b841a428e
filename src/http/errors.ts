// Errors of the HTTP layer itself (a body that is not JSON, an upload stream cut short, a file
// link that expired, a range outside a file): thrown with the status and the {"detail"} body
// of docs/api-conventions.md, its sentence a key of locales/<lang>/api.json. What the services
// throw is a DomainError (src/errors.ts); the one error handler answers both, in the request's
// language.
import type { Message } from '../errors.ts';

export class HttpError extends Error {
  readonly statusCode: number;
  readonly body: { detail: Message };
  readonly headers: Record<string, string>;

  constructor(statusCode: number, detail: Message, headers: Record<string, string> = {}) {
    super(JSON.stringify({ detail }));
    this.statusCode = statusCode;
    this.body = { detail };
    this.headers = headers;
  }
}
