// The error bodies of contract §2: field-keyed objects for 400, {"detail"} for the rest.

export type FieldErrors = { [field: string]: string[] | FieldErrors | FieldErrors[] };

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

/** 400 with errors keyed by field, nested objects nested: {"image_content": {"media_resource": ["…"]}}. */
export function badRequest(errors: FieldErrors): HttpError {
  return new HttpError(400, errors);
}

export function fieldError(field: string, message: string): HttpError {
  return badRequest({ [field]: [message] });
}

export function nonFieldError(message: string): HttpError {
  return badRequest({ non_field_errors: [message] });
}

export function notFound(): HttpError {
  return new HttpError(404, { detail: 'Not found.' });
}

export function unauthorized(detail: string): HttpError {
  return new HttpError(401, { detail }, { 'WWW-Authenticate': 'Token' });
}

export function forbidden(detail: string): HttpError {
  return new HttpError(403, { detail });
}

export function conflict(detail: string): HttpError {
  return new HttpError(409, { detail });
}

export function tooManyRequests(retryAfterSeconds: number, detail = 'Too many requests; try again later.'): HttpError {
  return new HttpError(429, { detail }, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
}

export function serviceUnavailable(detail: string): HttpError {
  return new HttpError(503, { detail });
}
