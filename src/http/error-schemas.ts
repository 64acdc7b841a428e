// The error bodies of docs/api-conventions.md, as response schemas for the OpenAPI document: declared on
// every route through `errors({...})`, shared once (components/schemas/ErrorDetail and
// FieldErrors). They document; they do not shape what is sent: the error handler serialises
// error bodies with JSON.stringify whatever a route declares (server-setup.ts).
import { Type } from 'typebox';
import type { FieldErrorsBody } from './error-language.ts';
import type { App } from './types.ts';
import { FIELD_ERROR_LEVELS } from './validation-errors.ts';

/** `{"detail": "…"}`: every error but a 400 about fields. */
export const ErrorDetailSchema = {
  $id: 'ErrorDetail',
  type: 'object',
  description: 'An error: a plain English sentence a client may show to a person.',
  properties: { detail: { type: 'string' } },
  required: ['detail'],
  additionalProperties: false,
} as const;

/** The 401 of an emergency link with a PIN (docs/emergency-links.md): `{"detail": "…", "pin_required": true}`. */
export const PinRequiredSchema = {
  $id: 'PinRequired',
  type: 'object',
  description: 'The link has a PIN: send it with POST {"pin"} to read the link.',
  properties: { detail: { type: 'string' }, pin_required: { type: 'boolean', const: true } },
  required: ['detail', 'pin_required'],
  additionalProperties: false,
} as const;

const MESSAGES = { type: 'array', items: { type: 'string' } } as const;

/** FieldErrors from `level` down: each level spelled out, the last holding messages only. */
function fieldErrorsFrom(level: number): object {
  if (level === FIELD_ERROR_LEVELS) return { type: 'object', additionalProperties: MESSAGES };
  const nested = fieldErrorsFrom(level + 1);
  return { type: 'object', additionalProperties: { anyOf: [MESSAGES, { type: 'array', items: nested }, nested] } };
}

/**
 * A 400 about fields: `{"<field>": ["message", …], "non_field_errors": ["…"]}`. Nested objects
 * nest (`{"image_content": {"media_resource": ["…"]}}`), and a list field has one object per
 * element, empty for an element without errors (`{"entries": [{}, {"text": ["…"]}]}`). Written
 * out to a fixed depth rather than referring to itself: contract-testing tools that generate
 * requests from the document stop at a recursive $ref.
 */
export const FieldErrorsSchema = {
  $id: 'FieldErrors',
  ...fieldErrorsFrom(1),
  description: `Messages by field name (non_field_errors: about the body as a whole). A nested object has its own FieldErrors; a list has one FieldErrors per element (empty for an element without errors). At most ${FIELD_ERROR_LEVELS} levels of objects: an error deeper in the body is reported at its field on the last level.`,
};

/** Adds the shared error schemas, so routes can refer to them by $id. */
export function registerErrorSchemas(app: App): void {
  app.addSchema(ErrorDetailSchema);
  app.addSchema(FieldErrorsSchema);
  app.addSchema(PinRequiredSchema);
}

const RETRY_AFTER = { 'Retry-After': { type: 'integer', description: 'Seconds to wait before trying again' } };

/** Every error says the language its sentences are written in (docs/api-conventions.md). */
const CONTENT_LANGUAGE = {
  'Content-Language': {
    type: 'string',
    description: "The language of the body's sentences: the best of Accept-Language among LANGUAGES, else DEFAULT_LANGUAGE",
  },
};

/**
 * One error response: its description, headers, and a JSON body (as `content`, so a route that
 * produces a file or an archive still documents its errors as JSON).
 */
function response<T>(description: string, schema: object, headers?: Record<string, object>) {
  return Type.Unsafe<T>({ description, headers: { ...CONTENT_LANGUAGE, ...headers }, content: { 'application/json': { schema } } });
}

const detail = (description: string, headers?: Record<string, object>) =>
  response<{ detail: string }>(description, { $ref: 'ErrorDetail' }, headers);

const badRequest = response<FieldErrorsBody | { detail: string }>(
  'Invalid input: FieldErrors; a body that is not JSON or nested too deeply, or a Content-Length that does not match the body: ErrorDetail',
  { anyOf: [{ $ref: 'FieldErrors' }, { $ref: 'ErrorDetail' }] },
);

export interface ErrorOptions {
  /** Needs or accepts a token: 401 (missing, malformed, expired or revoked token). */
  auth?: boolean;
  /** Names an object by id, or acts on one the caller must own: 404. */
  notFound?: boolean;
  /** Takes a request body: 400, 413 (over the body limit), 415 (not JSON, or not multipart for an upload). */
  body?: boolean;
  /** Takes query parameters or anything else a 400 may be about, without a body. */
  invalid?: boolean;
  /** 403, with when (true: register while authenticated). */
  forbidden?: boolean | string;
  /** 409, with what the conflict is. */
  conflict?: string;
  /** Rate-limited: 429 with Retry-After. */
  rateLimited?: boolean;
  /** A conditional write (If-Match): 412 when the tag is not the current one. */
  preconditionFailed?: boolean;
  /** A create that takes an Idempotency-Key: 422 when the key was used for another request. */
  idempotent?: boolean;
  /** 401 PinRequired with `WWW-Authenticate: PIN`, with when (an emergency link with a PIN). */
  pinRequired?: string;
  /** 410, with what is gone. */
  gone?: string;
  /** 416, with when. */
  rangeNotSatisfiable?: string;
}

/**
 * The error responses a route can answer, to spread into its `response`. 503 is always there
 * (database or media store away, a transaction that kept losing conflicts, overload); 405 is about the path, not an operation, and 500
 * is never meant to happen.
 */
export function errors(options: ErrorOptions = {}) {
  return {
    ...(options.body || options.invalid ? { 400: badRequest } : {}),
    ...(options.auth
      ? {
          401: detail('Missing, malformed, expired or revoked token', {
            'WWW-Authenticate': {
              type: 'string',
              enum: ['Token', 'Token error="token_expired"'],
              description: 'Token; a token that expired unused: Token error="token_expired"',
            },
          }),
        }
      : {}),
    ...(options.pinRequired
      ? {
          401: response<{ detail: string; pin_required: true }>(
            options.pinRequired,
            { $ref: 'PinRequired' },
            {
              'WWW-Authenticate': { type: 'string', const: 'PIN' },
            },
          ),
        }
      : {}),
    ...(options.forbidden ? { 403: detail(options.forbidden === true ? 'Not allowed while authenticated' : options.forbidden) } : {}),
    ...(options.notFound ? { 404: detail('Not found: missing, or not the caller’s') } : {}),
    ...(options.conflict ? { 409: detail(options.conflict) } : {}),
    ...(options.gone ? { 410: detail(options.gone) } : {}),
    ...(options.preconditionFailed ? { 412: detail('If-Match named a tag that is not the current one: nothing was changed') } : {}),
    ...(options.idempotent ? { 422: detail('The Idempotency-Key was used within 24 hours for another request') } : {}),
    ...(options.body ? { 413: detail('The request body is too large') } : {}),
    ...(options.body ? { 415: detail('Unsupported media type') } : {}),
    ...(options.rangeNotSatisfiable
      ? { 416: detail(options.rangeNotSatisfiable, { 'Content-Range': { type: 'string', description: 'bytes */<size>' } }) }
      : {}),
    ...(options.rateLimited ? { 429: detail('Too many requests', RETRY_AFTER) } : {}),
    503: detail(
      'The database or media store is unavailable, the database busy with conflicting changes, or the service overloaded',
      RETRY_AFTER,
    ),
  };
}
