// /auth/passkey/… (docs/sign-in-providers.md): signing in with a passkey, no address or password needed.
import { LoginThrottle } from '../../auth/login-throttle.ts';
import { perIpRateLimit } from '../../auth/ip-rate-limits.ts';
import type { AppContext } from '../../context.ts';
import { errors } from '../../http/error-schemas.ts';
import type { App } from '../../http/types.ts';
import { PasskeySignInBody, type PasskeySignInResponse, PasskeyTokenResponse, RequestOptionsSchema } from './passkey-schemas.ts';
import { UNKNOWN_PASSKEY, signInWithPasskey, startPasskeySignIn } from './passkey-sign-in.ts';
import { fieldError } from '../../errors.ts';
import { originOf } from '../sessions/session-origin.ts';

export function registerPasskeySignInRoutes(app: App, ctx: AppContext): void {
  const throttle = new LoginThrottle(ctx.config.rateLimits, ctx.counters, ctx.clock);

  app.post(
    '/auth/passkey/options/',
    {
      config: { auth: 'none', rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.passkeyOptionsPerIp) },
      schema: {
        tags: ['auth'],
        summary: 'Start signing in with a passkey: request options for any passkey of this site (no address needed)',
        security: [],
        operationId: 'startPasskeySignIn',
        response: { 200: RequestOptionsSchema, ...errors({ rateLimited: true }) },
      },
    },
    () => startPasskeySignIn(ctx),
  );

  app.post(
    '/auth/passkey/',
    {
      // The account was deleted between finding the passkey and issuing the token: as if never there.
      config: { auth: 'none', accountGone: () => fieldError('response', UNKNOWN_PASSKEY) },
      schema: {
        tags: ['auth'],
        summary: "Sign in with a passkey: the authenticator's answer to the options; a new token, as a login (no two-step code after it)",
        security: [],
        body: PasskeySignInBody,
        operationId: 'signInWithPasskey',
        response: { 200: PasskeyTokenResponse, ...errors({ body: true, rateLimited: true }) },
      },
    },
    async (request) => {
      return {
        token: await signInWithPasskey(ctx, throttle, { ...originOf(request), response: request.body.response as PasskeySignInResponse }),
      };
    },
  );
}
