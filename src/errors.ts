// What went wrong, in the service's own terms. Services, queries and the limits throw these;
// they know nothing of HTTP. The one error handler (src/http/server-setup.ts) answers each
// kind with the API's status and body (docs/api-conventions.md), and adds the headers a kind calls for.

/** Field-keyed messages, nested objects nested: {"image_content": {"media_resource": ["…"]}}. */
export type FieldErrors = { [field: string]: string[] | FieldErrors | FieldErrors[] };

export type ErrorKind =
  | 'invalid' // the input breaks a rule: field-keyed messages
  | 'not-found' // missing, or someone else's: never said which
  | 'unauthenticated' // no credentials, or not valid ones
  | 'forbidden'
  | 'conflict'
  | 'precondition-failed' // If-Match named a tag that is not the current one
  | 'gone' // a changes cursor past the retention, or not one the service gave
  | 'unprocessable' // well-formed, but not this: an Idempotency-Key reused for another request
  | 'rate-limited' // try again after `retryAfterSeconds`
  | 'unavailable'; // something the request needs is not there now

/** {"detail": "…"}; an emergency link's PIN request adds `pin_required` (docs/emergency-links.md). */
export type DetailBody = { detail: string; pin_required?: true };

export class DomainError extends Error {
  readonly kind: ErrorKind;
  /** {"detail": "…"}, or the field-keyed messages of an 'invalid' error. */
  readonly body: DetailBody | FieldErrors;
  readonly retryAfterSeconds: number | undefined;
  /** An 'unauthenticated' error's WWW-Authenticate challenge: what the caller must send. */
  readonly challenge: string;

  constructor(kind: ErrorKind, body: DetailBody | FieldErrors, retryAfterSeconds?: number, challenge = 'Token') {
    super(JSON.stringify(body));
    this.kind = kind;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
    this.challenge = challenge;
  }
}

export function invalid(errors: FieldErrors): DomainError {
  return new DomainError('invalid', errors);
}

export function fieldError(field: string, message: string): DomainError {
  return invalid({ [field]: [message] });
}

export function nonFieldError(message: string): DomainError {
  return invalid({ non_field_errors: [message] });
}

export function notFound(): DomainError {
  return new DomainError('not-found', { detail: 'Not found.' });
}

export function unauthenticated(detail: string): DomainError {
  return new DomainError('unauthenticated', { detail });
}

/** 401 of an emergency link with a PIN (docs/emergency-links.md): the PIN, not a token, is what to send. */
export function pinRequired(detail: string): DomainError {
  return new DomainError('unauthenticated', { detail, pin_required: true }, undefined, 'PIN');
}

export function forbidden(detail: string): DomainError {
  return new DomainError('forbidden', { detail });
}

export function conflict(detail: string): DomainError {
  return new DomainError('conflict', { detail });
}

export function preconditionFailed(detail: string): DomainError {
  return new DomainError('precondition-failed', { detail });
}

export function gone(detail: string): DomainError {
  return new DomainError('gone', { detail });
}

export function unprocessable(detail: string): DomainError {
  return new DomainError('unprocessable', { detail });
}

export function rateLimited(retryAfterSeconds: number, detail = 'Too many requests; try again later.'): DomainError {
  return new DomainError('rate-limited', { detail }, Math.max(1, Math.ceil(retryAfterSeconds)));
}

/** 429 for `waitMs` more: "<reason>; try again in N seconds.", with Retry-After: N (whole seconds, at least 1). */
/** 429 with no time to try again after: refused until someone acts. */
export function rateLimitedUntilReset(detail: string): DomainError {
  return new DomainError('rate-limited', { detail });
}

export function rateLimitedFor(waitMs: number, reason: string): DomainError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return rateLimited(seconds, `${reason}; try again in ${seconds} seconds.`);
}

export function unavailable(detail: string, retryAfterSeconds?: number): DomainError {
  return new DomainError('unavailable', { detail }, retryAfterSeconds);
}
