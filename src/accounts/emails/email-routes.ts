// /account/emails/ and e-mail verification (docs/accounts.md): the caller's e-mail addresses; verifying
// one with the e-mailed key, or having a fresh key sent.
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { parseId } from '../../http/ids.ts';
import type { App } from '../../http/types.ts';
import { perIpRateLimit } from '../../auth/ip-rate-limits.ts';
import { LoginThrottle } from '../../auth/login-throttle.ts';
import { callerOf } from '../../auth/token-auth.ts';
import { listAddresses } from './email-address-queries.ts';
import { emailAddressUrl, toEmailAddress } from './email-address-view.ts';
import {
  EmailActionListSchema,
  EmailAddressListSchema,
  EmailAddressSchema,
  EmailCreateBody,
  EmailIdParams,
  EmailPatchBody,
  EmailPutBody,
  EmptyObject,
  VERIFICATION_ACTIONS,
  VerifyEmailBody,
} from './email-schemas.ts';
import { addAddress, deleteAddress, getAddress, resendVerification, updateAddress } from './email-service.ts';
import { verifyEmailBy } from './verification-service.ts';
import { errors } from '../../http/error-schemas.ts';
import { viaOf } from '../../activity/activity-events.ts';

export function registerEmailRoutes(app: App, ctx: AppContext): void {
  // Codes tried here count as login failures, in the same counts as the login's.
  const throttle = new LoginThrottle(ctx.config.rateLimits, ctx.counters, ctx.clock);

  app.get(
    '/account/emails/',
    {
      schema: {
        tags: ['e-mail addresses'],
        summary: "The caller's e-mail addresses",
        operationId: 'listEmailAddresses',
        response: { 200: EmailAddressListSchema, ...errors({ auth: true }) },
      },
    },
    async (request) => {
      const rows = await listAddresses(ctx.db.kysely, callerOf(request).accountId);
      return rows.map((row) => toEmailAddress(ctx, row));
    },
  );

  app.post(
    '/account/emails/',
    {
      schema: {
        tags: ['e-mail addresses'],
        summary: 'Add an unverified address: a key is e-mailed to it and the primary address is told',
        body: EmailCreateBody,
        operationId: 'createEmailAddress',
        response: { 201: EmailAddressSchema, ...errors({ auth: true, notFound: true, body: true, rateLimited: true }) },
      },
    },
    async (request, reply) => {
      const { email, verified_action, primary } = request.body;
      const row = await addAddress(
        ctx,
        callerOf(request).accountId,
        { email, verifiedAction: verified_action, primary },
        callerOf(request).via,
      );
      return reply.code(201).header('Location', emailAddressUrl(ctx, row.id)).send(toEmailAddress(ctx, row));
    },
  );

  app.get(
    '/account/emails/actions/',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['e-mail addresses'],
        summary: 'The verification actions (verified_action values)',
        security: [],
        operationId: 'listEmailActions',
        response: { 200: EmailActionListSchema, ...errors() },
      },
    },
    () => [...VERIFICATION_ACTIONS],
  );

  app.get(
    '/account/emails/:id/',
    {
      schema: {
        tags: ['e-mail addresses'],
        summary: "One of the caller's addresses",
        params: EmailIdParams,
        operationId: 'getEmailAddress',
        response: { 200: EmailAddressSchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    async (request) => {
      const row = await getAddress(ctx, callerOf(request).accountId, parseId(request.params.id));
      return toEmailAddress(ctx, row);
    },
  );

  for (const [method, body] of [
    ['PATCH', EmailPatchBody],
    ['PUT', EmailPutBody],
  ] as const) {
    app.route({
      method,
      url: '/account/emails/:id/',
      schema: {
        tags: ['e-mail addresses'],
        summary:
          method === 'PATCH'
            ? 'Make a verified address primary ({"primary": true}); email and verified_action cannot change'
            : 'The same as PATCH, with the address itself required (sent back unchanged)',
        params: EmailIdParams,
        body,
        operationId: method === 'PATCH' ? 'updateEmailAddress' : 'replaceEmailAddress',
        response: { 200: EmailAddressSchema, ...errors({ auth: true, notFound: true, body: true }) },
      },
      handler: async (request) => {
        const row = await updateAddress(ctx, callerOf(request).accountId, parseId(request.params.id), request.body, callerOf(request).via);
        return toEmailAddress(ctx, row);
      },
    });
  }

  app.delete(
    '/account/emails/:id/',
    {
      schema: {
        tags: ['e-mail addresses'],
        summary: 'Delete a non-primary address (the primary one: 409)',
        params: EmailIdParams,
        operationId: 'deleteEmailAddress',
        response: { 204: Type.Null(), ...errors({ auth: true, notFound: true, conflict: 'The primary address cannot be deleted' }) },
      },
    },
    async (request, reply) => {
      await deleteAddress(ctx, callerOf(request).accountId, parseId(request.params.id), callerOf(request).via);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/account/verify-email/',
    {
      config: { auth: 'none', rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.verifyEmail) },
      schema: {
        tags: ['e-mail addresses'],
        summary: "Verify an address with the key from its e-mail (or the address and the e-mail's code) and the owner's password",
        security: [],
        body: VerifyEmailBody,
        operationId: 'verifyEmail',
        response: { 200: EmptyObject, ...errors({ notFound: true, body: true, rateLimited: true }) },
      },
    },
    async (request) => {
      const { key, email, email_code, password } = request.body;
      await verifyEmailBy(ctx, throttle, { key, email, emailCode: email_code, password, ip: request.ip, via: viaOf(request) });
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
