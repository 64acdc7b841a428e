// /account/mfa/… (docs/accounts.md): MFA's state, enrolment, confirmation, turning it
// off and new recovery codes. The login's second step is in ../login/login-routes.ts.
import { Type } from 'typebox';
import { perIpRateLimit } from '../../auth/ip-rate-limits.ts';
import type { PasswordCheckThrottle } from '../../auth/password-check-throttle.ts';
import { callerOf } from '../../auth/token-auth.ts';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/types.ts';
import { CodeBody, MfaStatusSchema, PasswordAndCodeBody, PasswordBody, RecoveryCodesSchema, TotpEnrolmentSchema } from './mfa-schemas.ts';
import { confirmTotp, disableTotp, mfaStatus, regenerateRecoveryCodes, startTotpEnrolment } from './mfa-service.ts';
import { errors } from '../../http/error-schemas.ts';

const tags = ['mfa'];

export function registerMfaRoutes(app: App, ctx: AppContext, passwordChecks: PasswordCheckThrottle): void {
  // Every route that checks a password or a code shares change-password's per-IP limit.
  const limited = { rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.changePassword) };

  app.get(
    '/account/mfa/',
    {
      schema: {
        tags,
        summary: 'Whether MFA is on, and how many recovery codes are left',
        operationId: 'getMfaStatus',
        response: { 200: MfaStatusSchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => mfaStatus(ctx, callerOf(request).accountId),
  );

  app.post(
    '/account/mfa/totp/',
    {
      config: limited,
      schema: {
        tags,
        summary: 'Start setting up MFA: a new secret for the authenticator app, pending until confirmed (409 when already on)',
        body: PasswordBody,
        operationId: 'startTotpEnrolment',
        response: {
          201: TotpEnrolmentSchema,
          ...errors({ auth: true, notFound: true, body: true, rateLimited: true, conflict: 'MFA is already on' }),
        },
      },
    },
    async (request, reply) => {
      const enrolment = await startTotpEnrolment(ctx, passwordChecks, callerOf(request).accountId, request.body.password);
      return reply.code(201).send(enrolment);
    },
  );

  app.post(
    '/account/mfa/totp/confirm/',
    {
      config: limited,
      schema: {
        tags,
        summary: "Turn MFA on with the app's first code; answers the recovery codes, shown this once",
        body: CodeBody,
        operationId: 'confirmTotp',
        response: { 200: RecoveryCodesSchema, ...errors({ auth: true, notFound: true, body: true, rateLimited: true }) },
      },
    },
    async (request) => ({ recovery_codes: await confirmTotp(ctx, callerOf(request).accountId, request.body.code, callerOf(request).via) }),
  );

  app.delete(
    '/account/mfa/totp/',
    {
      config: limited,
      schema: {
        tags,
        summary: 'Turn MFA off, with the password and a code (from the app, or a recovery code)',
        body: PasswordAndCodeBody,
        operationId: 'disableTotp',
        response: { 204: Type.Null(), ...errors({ auth: true, notFound: true, body: true, rateLimited: true }) },
      },
    },
    async (request, reply) => {
      await disableTotp(ctx, passwordChecks, callerOf(request).accountId, request.body, callerOf(request).via);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/account/mfa/recovery-codes/',
    {
      config: limited,
      schema: {
        tags,
        summary: 'A new set of recovery codes, with the password and a code; the old set stops working',
        body: PasswordAndCodeBody,
        operationId: 'regenerateRecoveryCodes',
        response: { 200: RecoveryCodesSchema, ...errors({ auth: true, notFound: true, body: true, rateLimited: true }) },
      },
    },
    async (request) => ({
      recovery_codes: await regenerateRecoveryCodes(ctx, passwordChecks, callerOf(request).accountId, request.body, callerOf(request).via),
    }),
  );
}
