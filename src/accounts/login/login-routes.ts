// /auth/register/, /auth/login/ and its second step /auth/login/mfa/, /auth/logout/,
// /auth/logout-all/ (contracts §3 and §9).
import { Type } from 'typebox';
import { perIpRateLimit } from '../../auth/ip-rate-limits.ts';
import { LoginThrottle } from '../../auth/login-throttle.ts';
import { callerOf } from '../../auth/token-auth.ts';
import { revokeToken } from '../../auth/token-queries.ts';
import type { AppContext } from '../../context.ts';
import { forbidden, nonFieldError } from '../../errors.ts';
import type { App } from '../../http/types.ts';
import { LoginBody, LoginResponse, RegisterBody, TokenResponse } from './login-schemas.ts';
import { completeMfaLogin, INVALID_CREDENTIALS, logIn } from './login-service.ts';
import { MfaLoginBody } from '../mfa/mfa-schemas.ts';
import { AccountSchema } from '../core/profile-schemas.ts';
import { registerAccount } from '../registration/registration-service.ts';
import { revokeAllSessions } from '../sessions/session-service.ts';
import { errors } from '../../http/error-schemas.ts';

const ALREADY_LOGGED_IN = 'You are already logged in; log out before registering a new account.';

export function registerAuthRoutes(app: App, ctx: AppContext): void {
  const throttle = new LoginThrottle(ctx.config.rateLimits, ctx.counters, ctx.clock);

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
        body: RegisterBody,
        operationId: 'register',
        response: { 201: AccountSchema, ...errors({ auth: true, body: true, forbidden: true, rateLimited: true }) },
      },
    },
    async (request, reply) => {
      const { email, password, first_name = '', last_name = '' } = request.body;
      const account = await registerAccount(ctx, { email, password, firstName: first_name, lastName: last_name });
      // The new account's own view, readable once its owner has logged in.
      return reply.code(201).header('Location', `${ctx.config.publicUrl}/account/profile/`).send(account);
    },
  );

  app.post(
    '/auth/login/',
    {
      // Deleted between finding the address and issuing the token: as if never there.
      config: { auth: 'none', accountGone: () => nonFieldError(INVALID_CREDENTIALS) },
      schema: {
        tags: ['auth'],
        summary:
          'Log in with a verified e-mail address and the password; each login issues a new token (with two-step sign-in on: an mfa_token for /auth/login/mfa/)',
        security: [],
        body: LoginBody,
        operationId: 'login',
        response: { 200: LoginResponse, ...errors({ body: true, rateLimited: true }) },
      },
    },
    async (request) => {
      const { username, email, password } = request.body;
      const address = username || email;
      if (!address) throw nonFieldError('Must include "username" (the e-mail address) and "password".');
      return logIn(ctx, throttle, { email: address, password, ip: request.ip, userAgent: request.headers['user-agent'] });
    },
  );

  app.post(
    '/auth/login/mfa/',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['auth'],
        summary: "Log in's second step when two-step sign-in is on: the mfa_token and a code from the app (or a recovery code)",
        security: [],
        body: MfaLoginBody,
        operationId: 'completeMfaLogin',
        response: { 200: TokenResponse, ...errors({ body: true, rateLimited: true }) },
      },
    },
    async (request) => {
      const { mfa_token, code } = request.body;
      const origin = { ip: request.ip, userAgent: request.headers['user-agent'] };
      return { token: await completeMfaLogin(ctx, throttle, { ...origin, mfaToken: mfa_token, code }) };
    },
  );

  app.post(
    '/auth/logout/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke the token used for this request',
        operationId: 'logout',
        response: { 204: Type.Null(), ...errors({ auth: true }) },
      },
    },
    async (request, reply) => {
      await revokeToken(ctx.db.kysely, callerOf(request).tokenId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/logout-all/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke every token of the account (log out everywhere) and end logins waiting for their second step',
        operationId: 'logoutAll',
        response: { 204: Type.Null(), ...errors({ auth: true }) },
      },
    },
    async (request, reply) => {
      await revokeAllSessions(ctx, callerOf(request).accountId);
      return reply.code(204).send(null);
    },
  );
}
