// Headers every API response carries (OWASP's REST security recommendations): nothing is
// cached on the way unless a route says otherwise (a login answer holds a token), a response
// is never sniffed into another type, rendered as a page or framed. Set once per request from
// one prepared object: this runs on every request, so it stays a single cheap hook rather than
// a middleware per request. The documentation pages get helmet's fuller set (app.ts).
import type { App } from './types.ts';

/**
 * For answers reached through an address that is itself the credential (an emergency link's
 * token, its API and its page): never stored, sent on as a referrer, or indexed.
 */
export const SECRET_ADDRESS_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' } as const;

export function registerSecurityHeaders(app: App, publicUrl: string): void {
  const headers: Record<string, string> = {
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'referrer-policy': 'no-referrer',
  };
  // Behind TLS (an https PUBLIC_URL), browsers are told to keep to it.
  if (publicUrl.startsWith('https:')) headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
