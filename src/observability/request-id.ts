// X-Request-Id (docs/production.md): every request gets an id, kept from the request's own header
// when it is a sane one (a proxy or client that made one wants to find it again) and made
// here otherwise. Fastify binds it to the request's logger (`reqId` in every log line of the
// request); the response carries it back.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Message } from '../errors.ts';
import { type ErrorLanguages, errorLanguage, writeMessage } from '../http/error-language.ts';
import type { App } from '../http/types.ts';

/** What an incoming id may be: short, and nothing a log line or a header could be hurt by. */
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's genReqId: the incoming X-Request-Id if sane (a repeated header, joined with ", ", is not), else a new UUID. */
export function requestId(raw: IncomingMessage): string {
  const incoming = raw.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Sets X-Request-Id on the reply before anything else runs, so every answer carries it: the
 * routes' and the error handler's, 404 and 405, and the overload guard's 503 (registered
 * after this, also an onRequest hook).
 */
export function registerRequestIdHeader(app: App): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}

const FRAMEWORK_ANSWERS: Record<string, { status: number; detail: Message }> = {
  FST_ERR_BAD_URL: { status: 400, detail: 'http.malformedUrl' },
  // A path parameter longer than the router takes (ROUTER_OPTIONS, server-setup.ts) names nothing.
  FST_ERR_MAX_PARAM_LENGTH: { status: 404, detail: 'errors.notFound' },
};

/**
 * Fastify's frameworkErrors: a path that cannot be decoded (`/app/profiles/%E0%A4%A/`) is
 * answered by the router, before any hook runs; without this its answer would carry neither
 * the id nor the API's {"detail"} body (in the request's language, as every error's).
 */
export function frameworkErrorAnswer(languages: ErrorLanguages) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    answerFrameworkError(error, request, reply, languages);
  };
}

function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply, languages: ErrorLanguages): void {
  const answer = FRAMEWORK_ANSWERS[error.code] ?? { status: 500, detail: 'errors.internal' };
  if (answer.status === 500) request.log.error({ err: error }, 'request failed');
  const detail = writeMessage(answer.detail, errorLanguage(request, reply, languages));
  void reply
    .code(answer.status)
    .header('x-request-id', request.id)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send({ detail });
}
