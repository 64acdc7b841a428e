// GET and POST /public/emergency/{token}/ (docs/emergency-links.md): no token, no account. Their answers
// are never stored, sent on as a referrer or indexed; the requests of one client IP share one
// budget (RATE_LIMIT_EMERGENCY_LINK_IP, counted as every per-IP limit: ip-rate-limits.ts); and
// the link's token stays out of the logs, as it works for a year (observability/request-log.ts).
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { perIpRateLimit } from '../auth/ip-rate-limits.ts';
import type { AppContext } from '../context.ts';
import { errors } from '../http/error-schemas.ts';
import { SECRET_ADDRESS_HEADERS } from '../http/security-headers.ts';
import type { App } from '../http/types.ts';
import { openLink, unlockLink, type Viewer } from './public-emergency-service.ts';
import { PinBody, PublicEmergencyInfoSchema, TokenParams } from './public-emergency-schemas.ts';
import { viaOf } from '../activity/activity-events.ts';

const tags = ['emergency links'];

const publicHeaders: onRequestHookHandler = (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
  reply.headers(SECRET_ADDRESS_HEADERS);
  done();
};

const viewerOf = (request: FastifyRequest): Viewer => ({ ip: request.ip, userAgent: request.headers['user-agent'], via: viaOf(request) });

const ERRORS = {
  notFound: true,
  rateLimited: true,
} as const;

export function registerPublicEmergencyRoutes(app: App, ctx: AppContext): void {
  const config = { auth: 'none' as const, rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.emergencyLinkPerIp, 'emergency-link') };

  app.get(
    '/public/emergency/:token/',
    {
      config,
      onRequest: publicHeaders,
      schema: {
        tags,
        summary: 'Read an emergency link (no token needed)',
        description:
          'The app user’s name, emergency items and contacts, and nothing else. With a PIN: 401 `pin_required`, then POST the PIN. Unknown, expired and revoked links: the same 404. Every 200 is recorded as a view, and its owner is e-mailed (at most once an hour).',
        security: [],
        params: TokenParams,
        operationId: 'readEmergencyLink',
        response: {
          200: PublicEmergencyInfoSchema,
          ...errors({ ...ERRORS, pinRequired: 'The link has a PIN: send it with POST {"pin"}' }),
        },
      },
    },
    (request) => openLink(ctx, request.params.token, viewerOf(request)),
  );

  app.post(
    '/public/emergency/:token/',
    {
      config,
      onRequest: publicHeaders,
      schema: {
        tags,
        summary: 'Read an emergency link with its PIN (no token needed)',
        description:
          'A wrong PIN is 400 under `pin`; after 5 wrong PINs in 15 minutes the link answers 429 for 15 minutes, twice as long each lock-out in a row, and its owner is e-mailed. ' +
          'The third lock-out in a row stops the link taking PINs (429 without Retry-After) until its owner sets the PIN again. A link without a PIN ignores `pin`.',
        security: [],
        params: TokenParams,
        body: PinBody,
        operationId: 'unlockEmergencyLink',
        response: { 200: PublicEmergencyInfoSchema, ...errors({ ...ERRORS, body: true }) },
      },
    },
    (request) => unlockLink(ctx, request.params.token, request.body.pin, viewerOf(request)),
  );
}
