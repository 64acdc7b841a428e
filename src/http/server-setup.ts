// The HTTP conventions of docs/api-conventions.md that hold for every endpoint: JSON parsing, trimming and
// the text rule (body-normalisation.ts), one error handler, 404 and 405 with Allow, and the
// overload guard.
import underPressure from '@fastify/under-pressure';
import type { FastifyError, FastifyReply, FastifyRequest, preHandlerHookHandler, preValidationHookHandler } from 'fastify';
import FindMyWay from 'find-my-way';
import secureJson from 'secure-json-parse';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE, isDatabaseUnavailable } from '../db/unavailable.ts';
import { normaliseBody } from './body-normalisation.ts';
import { type DetailBody, DomainError, type ErrorKind, type FieldErrors, invalid, message } from '../errors.ts';
import { type ErrorLanguages, errorLanguage, writeErrorBody } from './error-language.ts';
import { HttpError } from './errors.ts';
import { prependRouteHook } from './route-hooks.ts';
import type { App } from './types.ts';
import { formatValidationErrors } from './validation-errors.ts';

function registerJsonParser(app: App): void {
  app.removeContentTypeParser('application/json');
  // Fastify also parses text/plain by default; the API accepts JSON only (415 otherwise).
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    if ((text as string).trim() === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(text as string, undefined, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch {
      done(new HttpError(400, 'http.malformedJson'), undefined);
    }
  });
}

/**
 * On the routes that take a JSON body only: a read runs no hook for it. Bodies are normalised
 * before they are validated (trimmed strings are what the schema judges), but strings that break
 * the text rule are reported only once the body has the schema's shape: a string where an
 * object or a list belongs is a type error first, and the text rule's errors are placed by the
 * body's own fields, which only a valid body has.
 */
function registerBodyNormalisation(app: App): void {
  const uncleanText = new WeakMap<FastifyRequest, FieldErrors>();
  const normalise: preValidationHookHandler = (request, _reply, done) => {
    // An empty body is an empty object, so missing fields are reported one by one.
    if (request.body === undefined || request.body === null) request.body = {};
    const errors = normaliseBody(request.body);
    if (Object.keys(errors).length > 0) uncleanText.set(request, errors);
    done();
  };
  const refuseUncleanText: preHandlerHookHandler = (request, _reply, done) => {
    const errors = uncleanText.get(request);
    done(errors ? invalid(errors) : undefined);
  };
  app.addHook('onRoute', (route) => {
    if (!route.schema?.body) return;
    prependRouteHook(route, 'preValidation', normalise);
    prependRouteHook(route, 'preHandler', refuseUncleanText);
  });
}

/**
 * Error bodies are written in the request's language (error-language.ts) and serialised as they
 * are, whatever response schema the route declares for the status (error-schemas.ts documents
 * them): no serializer may drop a nested field error.
 */
function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  languages: ErrorLanguages,
  status: number,
  body: DetailBody | FieldErrors,
  headers: Record<string, string> = {},
): FastifyReply {
  const written = writeErrorBody(body, errorLanguage(request, reply, languages));
  return reply
    .code(status)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .serializer((payload: unknown) => JSON.stringify(payload))
    .send(written);
}

/** The API's status for each kind of domain error (docs/api-conventions.md). */
const STATUS_OF: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'precondition-failed': 412,
  gone: 410,
  unprocessable: 422,
  'rate-limited': 429,
  unavailable: 503,
};

function sendDomainError(request: FastifyRequest, reply: FastifyReply, languages: ErrorLanguages, error: DomainError): FastifyReply {
  const headers: Record<string, string> = {};
  if (error.kind === 'unauthenticated') headers['WWW-Authenticate'] = error.challenge;
  if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
  return sendError(request, reply, languages, STATUS_OF[error.kind], error.body, headers);
}

function registerErrorHandler(app: App, languages: ErrorLanguages): void {
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    body: DetailBody | FieldErrors,
    headers?: Record<string, string>,
  ) => sendError(request, reply, languages, status, body, headers);
  app.setErrorHandler((error: FastifyError | HttpError | DomainError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof DomainError) {
      // Something the request needs is away (the media store): worth a line in the log.
      if (error.kind === 'unavailable' && error.cause !== undefined) request.log.warn({ err: error.cause }, 'unavailable');
      return sendDomainError(request, reply, languages, error);
    }
    if (error instanceof HttpError) return send(request, reply, error.statusCode, error.body, error.headers);
    if (error.validation) {
      return send(request, reply, 400, formatValidationErrors(error.validation, request.body));
    }
    const status = error.statusCode ?? 500;
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(request, reply, 415, {
          detail: message('http.unsupportedMediaType', { type: request.headers['content-type'] ?? '' }),
        });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
      case 'FST_REQ_FILE_TOO_LARGE':
        return send(request, reply, 413, { detail: 'http.bodyTooLarge' });
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return send(request, reply, 400, { detail: 'http.contentLengthMismatch' });
    }
    if (status === 429) return send(request, reply, 429, { detail: 'errors.tooManyRequests' });
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return send(request, reply, 503, { detail: DATABASE_UNAVAILABLE }, { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
    }
    if (status >= 400 && status < 500) {
      return send(request, reply, status, { detail: status === 404 ? 'errors.notFound' : 'http.notProcessable' });
    }
    request.log.error({ err: error }, 'request failed');
    return send(request, reply, Math.max(status, 500), { detail: 'errors.internal' });
  });
}

/**
 * The router's options, shared by Fastify's router and the one that tells 405 from 404. A path
 * parameter may be as long as a request line can be (Node refuses a longer one with 431):
 * the route's own checks answer an over-long id or token with its 404, as any other that names
 * nothing, where the router's default limit (100) would fail the request before any route ran.
 */
export const ROUTER_OPTIONS = { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 16 * 1024 } as const;

const ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Unknown path: 404. Known path, other method: 405 with Allow (Fastify answers both with 404). */
function registerNotFound(app: App, languages: ErrorLanguages): void {
  const known = FindMyWay(ROUTER_OPTIONS);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if ((ALLOWED_METHODS as readonly string[]).includes(method) && !known.find(method as 'GET', route.url)) {
        known.on(method as 'GET', route.url, () => {});
      }
    }
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = ALLOWED_METHODS.filter((method) => known.find(method, path));
    if (allowed.length > 0) {
      const allow = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
      const detail = message('http.methodNotAllowed', { method: request.method });
      return sendError(request, reply, languages, 405, { detail }, { Allow: allow.join(', ') });
    }
    return sendError(request, reply, languages, 404, { detail: 'errors.notFound' });
  });
}

/**
 * `maxEventLoopDelay`: 0 turns the overload guard off (test servers share a busy machine).
 * `languages`: those error sentences are written in (LANGUAGES, DEFAULT_LANGUAGE).
 */
export async function registerHttpConventions(app: App, maxEventLoopDelay: number, languages: ErrorLanguages): Promise<void> {
  registerJsonParser(app);
  registerBodyNormalisation(app);
  registerErrorHandler(app, languages);
  registerNotFound(app, languages);
  await app.register(underPressure, {
    maxEventLoopDelay,
    retryAfter: 10,
    pressureHandler: (request, reply) => {
      sendError(request, reply, languages, 503, { detail: 'http.overloaded' }, { 'Retry-After': '10' });
    },
  });
}
