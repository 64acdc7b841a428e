// Cross-origin calls from browsers (docs/web-client.md): with CORS_ORIGINS set, pages of those
// origins may call the API, preflight included; unset, nothing is allowed and no CORS header
// is sent. Credentials are a token in the Authorization header, never a cookie, so no
// credentialed CORS is needed. The preflight is answered in an onRequest hook registered
// before authentication, so a browser's token-less preflight is never a 401.
import cors from '@fastify/cors';
import type { App } from './types.ts';

/** How long a browser may keep a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE = 600;

export async function registerCors(app: App, origins: string[]): Promise<void> {
  if (origins.length === 0) return;
  const anyOrigin = origins.includes('*');
  await app.register(cors, {
    // Decided per request: another origin (or none) gets no CORS at all, so an OPTIONS that is
    // no allowed preflight falls through to the usual 405 with Allow.
    origin: (origin, allow) => allow(null, origin !== undefined && (anyOrigin || origins.includes(origin)) ? origin : false),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'If-None-Match', 'If-Match', 'Idempotency-Key'],
    // What a client needs to read from an answer: the new object's URL, when to retry, the id
    // to report, an export's file name, and why a token was refused.
    exposedHeaders: ['Location', 'Retry-After', 'X-Request-Id', 'Content-Disposition', 'WWW-Authenticate', 'ETag'],
    maxAge: PREFLIGHT_MAX_AGE,
    strictPreflight: false,
  });
}
