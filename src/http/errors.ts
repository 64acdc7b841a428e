// Errors of the HTTP layer itself (a body that is not JSON, an upload stream cut short, a file
// link that expired, a range outside a file): thrown with the status and the {"detail"} body
// of docs/api-conventions.md. What the services throw is a DomainError (src/errors.ts); the one error
// handler answers both.

export class HttpError extends Error {
  readonly statusCode: number;
  readonly body: object;
  readonly headers: Record<string, string>;

  constructor(statusCode: number, body: object, headers: Record<string, string> = {}) {
    super(JSON.stringify(body));
    this.statusCode = statusCode;
    this.body = body;
    this.headers = headers;
  }
}
