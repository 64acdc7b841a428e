// What the log keeps of a request: Fastify's request serializer for every line of every route,
// 404 and 405 included, less the secrets a URL can carry. An emergency link's token works for a
// year and is its own credential; a reset or verification key, a signed media URL's signature,
// a provider's code and state are each enough to act with. The log keeps where the request
// went (`/emergency/<token>`, `?key=<redacted>`), never the secret itself.
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** Query parameters whose value is a secret, lower-cased. */
const SECRET_PARAMETERS = new Set([
  // Verification and reset links (/verify-email?key=, /reset-password?key=).
  'key',
  // Signed media URLs (src/media/signed-urls.ts): the signature is the credential.
  'signature',
  // A provider's answer at /auth/oidc/<name>/callback/: the code and state, or tokens themselves.
  'code',
  'state',
  'id_token',
  'access_token',
  'refresh_token',
  'token',
  'pin',
  'password',
]);

/** The emergency link's token: the web page's /emergency/<token> and the API's /public/emergency/<token>/…. */
const TOKEN_IN_PATH = /^(\/+(?:public\/+)?emergency\/+)[^/]+/i;

export const REDACTED = '<redacted>';

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/** `url` (path and query, as the request line has it) with the secrets it may carry replaced. */
export function loggableUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = (mark === -1 ? url : url.slice(0, mark)).replace(TOKEN_IN_PATH, '$1<token>');
  if (mark === -1) return path;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return SECRET_PARAMETERS.has(decodedName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Fastify's own request serializer, with the URL made loggable. */
export const requestLogSerializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
};

/**
 * For a person reading a terminal (LOG_FORMAT=pretty): one line a request, once it is answered,
 * in place of Fastify's two (each printed as a block of fields): `GET /app/users/1/ 200 3.1 ms`.
 * JSON logs keep Fastify's lines for the machines that read them.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = `${request.method} ${loggableUrl(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`;
    if (error) request.log.error({ err: error }, line);
    else request.log.info(line);
  }
}
