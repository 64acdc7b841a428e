// /auth/register/ (docs/accounts.md): a new account, its address waiting for verification.
import { perIpRateLimit } from '../../auth/ip-rate-limits.ts';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../errors.ts';
import { errors } from '../../http/error-schemas.ts';
import type { App } from '../../http/types.ts';
import { AccountSchema } from '../core/profile-schemas.ts';
import { negotiateLanguage } from '../../i18n/languages.ts';
import { registerBody } from './registration-schemas.ts';
import { registerAccount } from './registration-service.ts';

const ALREADY_LOGGED_IN = 'registration.alreadyLoggedIn';

export function registerRegistrationRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/auth/register/',
    {
      config: { auth: 'optional', rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.register) },
      // An authenticated caller is refused before its body is read or validated (as v1 did).
      onRequest: async (request) => {
        if (request.caller) throw forbidden(ALREADY_LOGGED_IN);
      },
      schema: {
        tags: ['auth'],
        summary: 'Create an account and e-mail a verification key to its address (does not log in)',
        security: [],
        body: registerBody(ctx.config.languages),
        operationId: 'register',
        response: { 201: AccountSchema, ...errors({ auth: true, body: true, forbidden: true, rateLimited: true }) },
      },
    },
    async (request, reply) => {
      const { email, password, first_name = '', last_name = '' } = request.body;
      const language =
        request.body.language ?? negotiateLanguage(request.headers['accept-language'], ctx.config.languages, ctx.config.defaultLanguage);
      const account = await registerAccount(ctx, { email, password, firstName: first_name, lastName: last_name, language });
      // The new account's own view, readable once its owner has logged in.
      return reply.code(201).header('Location', `${ctx.config.publicUrl}/account/profile/`).send(account);
    },
  );
}
