// E-mail verification (contract §4): verify with the e-mailed key, or have a fresh key sent.
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { parseId } from '../../http/ids.ts';
import type { App } from '../../http/types.ts';
import { perIpRateLimit } from '../../auth/ip-rate-limits.ts';
import { callerOf } from '../../auth/token-auth.ts';
import { EmailIdParams, EmptyObject, VerifyEmailBody } from './email-schemas.ts';
import { resendVerification } from './email-service.ts';
import { verifyEmail } from './verification-service.ts';
import { errors } from '../../http/error-schemas.ts';

export function registerVerificationRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/account/verify-email/',
    {
      config: { auth: 'none', rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.verifyEmail) },
      schema: {
        tags: ['e-mail addresses'],
        summary: "Verify an address with the key from its e-mail and the owner's password",
        security: [],
        body: VerifyEmailBody,
        operationId: 'verifyEmail',
        response: { 200: EmptyObject, ...errors({ notFound: true, body: true, rateLimited: true }) },
      },
    },
    async (request) => {
      await verifyEmail(ctx, request.body.key, request.body.password);
      return {};
    },
  );

  app.post(
    '/account/emails/:id/resend-verification/',
    {
      schema: {
        tags: ['e-mail addresses'],
        summary: 'E-mail a fresh verification key to an unverified address (at most once a minute per address)',
        params: EmailIdParams,
        operationId: 'resendEmailVerification',
        response: { 204: Type.Null(), ...errors({ auth: true, notFound: true, rateLimited: true }) },
      },
    },
    async (request, reply) => {
      await resendVerification(ctx, callerOf(request).accountId, parseId(request.params.id));
      return reply.code(204).send(null);
    },
  );
}
