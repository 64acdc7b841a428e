// What went wrong, in the service's own terms. Services, queries and the limits throw these;
// they know nothing of HTTP. The one error handler (src/http/server-setup.ts) answers each
// kind with the API's status and body (docs/api-conventions.md), and adds the headers a kind calls for.
// Their sentences are keys of locales/<lang>/api.json (with the values of their placeholders):
// the error handler writes them in the request's language, and only when an error is answered.
import type { ApiMessageKey } from './i18n/catalogues.ts';
import type { MessageValues } from './i18n/format.ts';

/** A sentence with placeholders: its key and their values. */
export class ApiMessage {
  readonly key: ApiMessageKey;
  readonly values: MessageValues;

  constructor(key: ApiMessageKey, values: MessageValues) {
    this.key = key;
    this.values = values;
  }

  toJSON(): string {
    return `${this.key} ${JSON.stringify(this.values)}`;
  }
}

/** A sentence of the API: a key of locales/en/api.json, or one with values for its placeholders. */
export type Message = ApiMessageKey | ApiMessage;

/** Whether `value` is a sentence (a key, or an ApiMessage), not a nested object of field errors. */
export function isMessage(value: unknown): value is Message {
  return typeof value === 'string' || value instanceof ApiMessage;
}

/** The sentence `key` with `values` for its placeholders (`{max}`, `{count, plural, …}`). */
export function message(key: ApiMessageKey, values: MessageValues): ApiMessage {
  return new ApiMessage(key, values);
}

/** Field-keyed messages, nested objects nested: {"image_content": {"media_resource": ["…"]}}. */
export type FieldErrors = { [field: string]: Message[] | FieldErrors | FieldErrors[] };

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
export type DetailBody = { detail: Message; pin_required?: true };

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

export function fieldError(field: string, message: Message): DomainError {
  return invalid({ [field]: [message] });
}

export function nonFieldError(message: Message): DomainError {
  return invalid({ non_field_errors: [message] });
}

export function notFound(): DomainError {
  return new DomainError('not-found', { detail: 'errors.notFound' });
}

/** 401; `challenge`: the WWW-Authenticate challenge, `Token` unless a reason is given to machines. */
export function unauthenticated(detail: Message, challenge = 'Token'): DomainError {
  return new DomainError('unauthenticated', { detail }, undefined, challenge);
}

/** 401 of an emergency link with a PIN (docs/emergency-links.md): the PIN, not a token, is what to send. */
export function pinRequired(detail: Message): DomainError {
  return new DomainError('unauthenticated', { detail, pin_required: true }, undefined, 'PIN');
}

export function forbidden(detail: Message): DomainError {
  return new DomainError('forbidden', { detail });
}

export function conflict(detail: Message): DomainError {
  return new DomainError('conflict', { detail });
}

export function preconditionFailed(detail: Message): DomainError {
  return new DomainError('precondition-failed', { detail });
}

export function gone(detail: Message): DomainError {
  return new DomainError('gone', { detail });
}

export function unprocessable(detail: Message): DomainError {
  return new DomainError('unprocessable', { detail });
}

export function rateLimited(retryAfterSeconds: number, detail: Message = 'errors.tooManyRequests'): DomainError {
  return new DomainError('rate-limited', { detail }, Math.max(1, Math.ceil(retryAfterSeconds)));
}

/** 429 with no time to try again after: refused until someone acts. */
export function rateLimitedUntilReset(detail: Message): DomainError {
  return new DomainError('rate-limited', { detail });
}

/**
 * 429 for `waitMs` more, with Retry-After: N (whole seconds, at least 1). `reason`: a sentence
 * with a `{seconds}` placeholder ("<reason>; try again in {seconds, plural, …}.").
 */
export function rateLimitedFor(waitMs: number, reason: ApiMessageKey): DomainError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return rateLimited(seconds, message(reason, { seconds }));
}

export function unavailable(detail: Message, retryAfterSeconds?: number): DomainError {
  return new DomainError('unavailable', { detail }, retryAfterSeconds);
}
