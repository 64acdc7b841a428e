// /auth/login/ and its second step /auth/login/mfa/ (docs/accounts.md).
import { perIpRateLimit } from '../../auth/ip-rate-limits.ts';
import { LoginThrottle } from '../../auth/login-throttle.ts';
import type { AppContext } from '../../context.ts';
import { fieldError, nonFieldError } from '../../errors.ts';
import type { App } from '../../http/types.ts';
import { LoginBody, LoginResponse, TokenResponse } from './login-schemas.ts';
import { completeMfaLogin, INVALID_CREDENTIALS, logIn } from './login-service.ts';
import { MfaLoginBody } from '../mfa/mfa-schemas.ts';
import { errors } from '../../http/error-schemas.ts';
import { LoginCodeBody } from '../identities/identity-schemas.ts';
import { DEAD_LOGIN_CODE, signInWithLoginCode } from '../identities/identity-sign-in.ts';
import { signInBrowserOf } from '../identities/sign-in-browser.ts';
import { EmailCodeLoginBody, EmailCodeRequestBody, EmailCodeRequestResponse } from './login-schemas.ts';
import { requestSignInCode, signInWithEmailCode } from './email-code-sign-in.ts';
import { WRONG_EMAIL_CODE } from '../emails/email-codes.ts';
import { originOf } from '../sessions/session-origin.ts';

export function registerLoginRoutes(app: App, ctx: AppContext): void {
  const throttle = new LoginThrottle(ctx.config.rateLimits, ctx.counters, ctx.clock);

  app.post(
    '/auth/login/',
    {
      // Deleted between finding the address and issuing the token: as if never there.
      config: { auth: 'none', accountGone: () => nonFieldError(INVALID_CREDENTIALS) },
      schema: {
        tags: ['auth'],
        summary:
          'Log in with a verified e-mail address and the password; each login issues a new token (with MFA on: an mfa_token for /auth/login/mfa/)',
        security: [],
        body: LoginBody,
        operationId: 'login',
        response: { 200: LoginResponse, ...errors({ body: true, rateLimited: true }) },
      },
    },
    async (request) => {
      const { username, email, password } = request.body;
      const address = username || email;
      if (!address) throw nonFieldError('login.usernameAndPassword');
      return logIn(ctx, throttle, { email: address, password, ...originOf(request) });
    },
  );

  app.post(
    '/auth/login/mfa/',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['auth'],
        summary: "Log in's second step when MFA is on: the mfa_token and a code from the app (or a recovery code)",
        security: [],
        body: MfaLoginBody,
        operationId: 'completeMfaLogin',
        response: { 200: TokenResponse, ...errors({ body: true, rateLimited: true }) },
      },
    },
    async (request) => {
      const { mfa_token, code } = request.body;
      return { token: await completeMfaLogin(ctx, throttle, { ...originOf(request), mfaToken: mfa_token, code }) };
    },
  );

  app.post(
    '/auth/login/code/',
    {
      // Counted with the provider sign-ins it finishes; the account deleted meanwhile: as if the code were dead.
      config: {
        auth: 'none',
        rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.providerSignInPerIp, 'provider-sign-in'),
        accountGone: () => fieldError('code', DEAD_LOGIN_CODE),
      },
      schema: {
        tags: ['auth'],
        summary:
          'Finish signing in with another provider in a browser: the one-time code the web flow handed the web client (60 s, once, with the __Host-sign-in-browser cookie of the browser that started the flow); the answers of POST /auth/login/',
        security: [],
        body: LoginCodeBody,
        operationId: 'loginWithCode',
        response: { 200: LoginResponse, ...errors({ body: true, rateLimited: true }) },
      },
    },
    (request) => signInWithLoginCode(ctx, request.body.code, signInBrowserOf(request), originOf(request)),
  );

  app.post(
    '/auth/email-code/',
    {
      config: {
        auth: 'none',
        rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.emailCodeRequests),
        // Deleted between finding the address and writing the code: as for any other address.
        accountGone: (request) => ({ email: (request.body as { email: string }).email }),
      },
      schema: {
        tags: ['auth'],
        summary:
          'E-mail a 6-digit sign-in code to a verified address (10 minutes, once; the answer never says whether the address belongs to an account)',
        security: [],
        body: EmailCodeRequestBody,
        operationId: 'requestEmailCode',
        response: { 200: EmailCodeRequestResponse, ...errors({ body: true, rateLimited: true }) },
      },
    },
    async (request) => {
      await requestSignInCode(ctx, request.body.email, request.log);
      return { email: request.body.email };
    },
  );

  app.post(
    '/auth/login/email-code/',
    {
      // Deleted between the code and the token: as if the code were dead.
      config: { auth: 'none', accountGone: () => fieldError('email_code', WRONG_EMAIL_CODE) },
      schema: {
        tags: ['auth'],
        summary:
          'Log in with the code e-mailed by POST /auth/email-code/; the answers of POST /auth/login/ (with MFA on: an mfa_token for /auth/login/mfa/)',
        security: [],
        body: EmailCodeLoginBody,
        operationId: 'loginWithEmailCode',
        response: { 200: LoginResponse, ...errors({ body: true, rateLimited: true }) },
      },
    },
    (request) =>
      signInWithEmailCode(ctx, throttle, {
        email: request.body.email,
        code: request.body.email_code,
        ...originOf(request),
      }),
  );
}
