// An error body in the request's language: its sentences are keys of locales/<lang>/api.json
// (src/errors.ts), written out here, only when an error is answered; a successful answer
// negotiates nothing.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiMessage, type DetailBody, type FieldErrors, isMessage, type Message } from '../errors.ts';
import { formatMessage } from '../i18n/format.ts';
import { type Language, negotiateLanguage } from '../i18n/languages.ts';

/** The languages error sentences are written in: LANGUAGES and DEFAULT_LANGUAGE. */
export type ErrorLanguages = { readonly languages: readonly Language[]; readonly defaultLanguage: Language };

/** Field-keyed messages as sent: each sentence written out. */
export type FieldErrorsBody = { [field: string]: string[] | FieldErrorsBody | FieldErrorsBody[] };

/** A sentence of the API, written in `language`. */
export function writeMessage(message: Message, language: Language): string {
  return message instanceof ApiMessage
    ? formatMessage(language, 'api', message.key, message.values)
    : formatMessage(language, 'api', message);
}

/**
 * An error body with every sentence written in `language`: a string of the body is a message
 * key, an ApiMessage one with values; anything else (`pin_required`) is sent as it is.
 */
export function writeErrorBody(body: DetailBody | FieldErrors, language: Language): Record<string, unknown> {
  return writeNode(body, language) as Record<string, unknown>;
}

function writeNode(node: unknown, language: Language): unknown {
  if (isMessage(node)) return writeMessage(node, language);
  if (Array.isArray(node)) return node.map((element) => writeNode(element, language));
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([field, value]) => [field, writeNode(value, language)]));
  }
  return node;
}

/**
 * The request's language: its Accept-Language, best match among LANGUAGES, else
 * DEFAULT_LANGUAGE. `*` (any language; fetch sends it by default) is DEFAULT_LANGUAGE too.
 */
export function requestLanguage(request: FastifyRequest, languages: ErrorLanguages): Language {
  const header = request.headers['accept-language'];
  const { defaultLanguage } = languages;
  const offered = [defaultLanguage, ...languages.languages.filter((language) => language !== defaultLanguage)];
  return negotiateLanguage(typeof header === 'string' ? header : undefined, offered, defaultLanguage);
}

/**
 * The request's language for an error, said on the reply: Content-Language, and
 * Vary: Accept-Language for caches.
 */
export function errorLanguage(request: FastifyRequest, reply: FastifyReply, languages: ErrorLanguages): Language {
  const language = requestLanguage(request, languages);
  reply.header('content-language', language);
  const vary = reply.getHeader('vary');
  const varied = typeof vary === 'string' ? vary : Array.isArray(vary) ? vary.join(', ') : '';
  if (!/(^|,)\s*(accept-language|\*)\s*(,|$)/i.test(varied))
    reply.header('vary', varied ? `${varied}, Accept-Language` : 'Accept-Language');
  return language;
}
