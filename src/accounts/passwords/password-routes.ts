// Password reset and change (docs/accounts.md).
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/types.ts';
import { perIpRateLimit } from '../../auth/ip-rate-limits.ts';
import { LoginThrottle } from '../../auth/login-throttle.ts';
import type { PasswordCheckThrottle } from '../../auth/password-check-throttle.ts';
import { EmptyObject } from '../emails/email-schemas.ts';
import { ChangePasswordBody, ResetPasswordBody, ResetPasswordResponse } from './password-schemas.ts';
import { changePassword, requestPasswordReset } from './password-service.ts';
import { errors } from '../../http/error-schemas.ts';
import { viaOf } from '../../activity/activity-events.ts';

export function registerPasswordRoutes(app: App, ctx: AppContext, passwordChecks: PasswordCheckThrottle): void {
  // The reset e-mail's code, tried here, counts as a login failure, in the login's counts.
  const codeTries = new LoginThrottle(ctx.config.rateLimits, ctx.counters, ctx.clock);

  app.post(
    '/account/reset-password/',
    {
      config: {
        auth: 'none',
        rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.resetPassword),
        // Deleted between finding the address and writing the key: as for any other address.
        accountGone: (request) => ({ email: (request.body as { email: string }).email }),
      },
      schema: {
        tags: ['account'],
        summary: 'E-mail a password reset key to a verified address (the answer never says whether it belongs to an account)',
        security: [],
        body: ResetPasswordBody,
        operationId: 'resetPassword',
        response: { 200: ResetPasswordResponse, ...errors({ body: true, rateLimited: true }) },
      },
    },
    async (request) => {
      await requestPasswordReset(ctx, request.body.email, request.log);
      return { email: request.body.email };
    },
  );

  app.post(
    '/account/change-password/',
    {
      config: { auth: 'optional', rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.changePassword) },
      schema: {
        tags: ['account'],
        summary: "Change the password with the old password (token needed), or with a reset key or the reset e-mail's code (no token)",
        // Either: anonymous with a key or code, or with a token and the old password.
        security: [{}, { token: [] }],
        body: ChangePasswordBody,
        operationId: 'changePassword',
        response: { 200: EmptyObject, ...errors({ auth: true, notFound: true, body: true, rateLimited: true }) },
      },
    },
    async (request) => {
      const { new_password, key, email, email_code, old_password, code } = request.body;
      await changePassword(ctx, passwordChecks, codeTries, request.caller, {
        newPassword: new_password,
        key,
        email,
        emailCode: email_code,
        oldPassword: old_password,
        code,
        ip: request.ip,
        via: viaOf(request),
      });
      return {};
    },
  );
}
