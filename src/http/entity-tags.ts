// Validators for personal data (docs/offline-and-live.md): every 200 of a GET under /app/ carries a strong
// `ETag`, a hash of the exact bytes the caller gets, so it changes exactly when their body
// does (an owner and an accessor see different bodies: different tags). `If-None-Match` with
// the current tag answers 304 with no body. A rendering served from the cache
// (app-data/views/rendering-cache.ts) brings the tag it was stored with, so a hit hashes nothing.
import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { appendRouteHook } from './route-hooks.ts';
import type { App } from './types.ts';

/** The strong tag of a body: 128 bits of its SHA-256, quoted. */
export function entityTag(body: string | Buffer): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 22)}"`;
}

/**
 * Whether an `If-None-Match` or `If-Match` header names `tag`: one of a list, or `*`. RFC 9110
 * §13.1: If-None-Match compares weakly (W/"x" matches "x"), If-Match strongly (a weak tag never
 * matches).
 */
export function tagListMatches(header: string | undefined, tag: string, comparison: 'weak' | 'strong' = 'weak'): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  for (const part of header.split(',')) {
    const trimmed = part.trim();
    const candidate = comparison === 'weak' ? trimmed.replace(/^W\//, '') : trimmed;
    if (candidate === tag) return true;
  }
  return false;
}

/**
 * Sends `body` with its tag, or 304 when the request already holds it. For a cached rendering,
 * whose tag is known: deciding the 304 here, before the body is handed to Fastify, is what makes a
 * revalidation cheaper than a read (bench W8); the hook below decides it for every other GET.
 */
export function sendTagged(request: FastifyRequest, reply: FastifyReply, tag: string, body: Buffer): FastifyReply {
  reply.header('etag', tag);
  if (tagListMatches(request.headers['if-none-match'], tag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(body);
}

// A callback, not an async function: a cached rendering's answer (tagged already) passes
// through without a promise.
const tagResponse: onSendHookHandler = (request, reply, payload, done) => {
  if (reply.statusCode !== 200 || reply.hasHeader('etag') || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
    done(null, payload);
    return;
  }
  const tag = entityTag(payload);
  reply.header('etag', tag);
  if (!tagListMatches(request.headers['if-none-match'], tag)) {
    done(null, payload);
    return;
  }
  reply.code(304);
  reply.removeHeader('content-type');
  done(null, '');
};

/** Tags the answers of every GET route under /app/ (HEAD follows its GET). */
export function registerEntityTags(app: App): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url.startsWith('/app/') && methods.includes('GET')) appendRouteHook(route, 'onSend', tagResponse);
  });
}
