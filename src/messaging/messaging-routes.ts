// POST /auth/messaging/ (docs/messaging-and-sync.md): an identity token for the authenticated caller.
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { unavailable } from '../errors.ts';
import type { App } from '../http/types.ts';
import { issueIdentityToken } from './identity-token.ts';
import { IdentityTokenBody, IdentityTokenResponse } from './messaging-schemas.ts';
import { errors } from '../http/error-schemas.ts';

export function registerMessagingRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/auth/messaging/',
    {
      schema: {
        summary: 'Issue an identity token for the messaging provider',
        description: "Signs the provider's nonce into an RS256 JWT naming the caller's account. 503 when messaging is not configured.",
        tags: ['auth'],
        body: IdentityTokenBody,
        operationId: 'createMessagingToken',
        response: { 201: IdentityTokenResponse, ...errors({ auth: true, body: true }) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const settings = ctx.config.messaging;
      const key = ctx.secrets.messagingKey;
      if (!settings || !key) throw unavailable('messaging.notConfigured');
      const token = await issueIdentityToken(settings, key, {
        accountId: caller.accountId,
        nonce: request.body.nonce,
        now: ctx.clock.now(),
      });
      return reply.code(201).send({ identity_token: token });
    },
  );
}
