// /account/passkeys/… (docs/sign-in-providers.md): a signed-in person's passkeys. Signing in with one is
// passkey-sign-in-routes.ts.
import { Type } from 'typebox';
import { perIpRateLimit } from '../../auth/ip-rate-limits.ts';
import type { PasswordCheckThrottle } from '../../auth/password-check-throttle.ts';
import { callerOf } from '../../auth/token-auth.ts';
import type { AppContext } from '../../context.ts';
import { errors } from '../../http/error-schemas.ts';
import { parseId } from '../../http/ids.ts';
import type { App } from '../../http/types.ts';
import {
  CreationOptionsSchema,
  PasskeyCreationBody,
  PasskeyIdParams,
  PasskeyListSchema,
  PasskeyNameBody,
  PasskeyOptionsBody,
  PasskeySchema,
  passkeyUrl,
  toPasskey,
} from './passkey-schemas.ts';
import { addPasskey, passkeyOf, passkeysOf, removePasskey, renameAccountPasskey, startPasskeyRegistration } from './passkey-service.ts';

const tags = ['passkeys'];

export function registerPasskeyRoutes(app: App, ctx: AppContext, passwordChecks: PasswordCheckThrottle): void {
  // The password check shares change-password's per-IP limit, as MFA's routes do.
  const limited = { rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.changePassword) };

  app.post(
    '/account/passkeys/options/',
    {
      config: limited,
      schema: {
        tags,
        summary:
          'Start adding a passkey: the password again (an account without one: a session opened within 5 minutes), then creation options for the authenticator (the challenge works once, 5 minutes)',
        body: PasskeyOptionsBody,
        operationId: 'startPasskeyRegistration',
        response: { 200: CreationOptionsSchema, ...errors({ auth: true, notFound: true, body: true, rateLimited: true }) },
      },
    },
    (request) => startPasskeyRegistration(ctx, passwordChecks, callerOf(request), request.body.password),
  );

  app.post(
    '/account/passkeys/',
    {
      schema: {
        tags,
        summary: "Add a passkey: its name and the authenticator's answer to the options; the primary address is told",
        body: PasskeyCreationBody,
        operationId: 'createPasskey',
        response: { 201: PasskeySchema, ...errors({ auth: true, notFound: true, body: true }) },
      },
    },
    async (request, reply) => {
      const row = await addPasskey(ctx, callerOf(request).accountId, request.body as PasskeyCreationBody, callerOf(request).via);
      return reply.code(201).header('Location', passkeyUrl(ctx, row.id)).send(toPasskey(ctx, row));
    },
  );

  app.get(
    '/account/passkeys/',
    {
      schema: {
        tags,
        summary: "The caller's passkeys (never their keys)",
        operationId: 'listPasskeys',
        response: { 200: PasskeyListSchema, ...errors({ auth: true }) },
      },
    },
    async (request) => (await passkeysOf(ctx, callerOf(request).accountId)).map((row) => toPasskey(ctx, row)),
  );

  app.get(
    '/account/passkeys/:id/',
    {
      schema: {
        tags,
        summary: "One of the caller's passkeys",
        params: PasskeyIdParams,
        operationId: 'getPasskey',
        response: { 200: PasskeySchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    async (request) => toPasskey(ctx, await passkeyOf(ctx, callerOf(request).accountId, parseId(request.params.id))),
  );

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: '/account/passkeys/:id/',
      schema: {
        tags,
        summary: method === 'PATCH' ? 'Rename a passkey' : 'The same as PATCH (name is the only field that changes)',
        params: PasskeyIdParams,
        body: PasskeyNameBody,
        operationId: method === 'PATCH' ? 'updatePasskey' : 'replacePasskey',
        response: { 200: PasskeySchema, ...errors({ auth: true, notFound: true, body: true }) },
      },
      handler: async (request) =>
        toPasskey(ctx, await renameAccountPasskey(ctx, callerOf(request).accountId, parseId(request.params.id), request.body.name)),
    });
  }

  app.delete(
    '/account/passkeys/:id/',
    {
      schema: {
        tags,
        summary: 'Remove a passkey (409 when it is the last way in: no password, no other passkey, no identity)',
        params: PasskeyIdParams,
        operationId: 'deletePasskey',
        response: {
          204: Type.Null(),
          ...errors({
            auth: true,
            notFound: true,
            conflict: 'It is the last way into the account: no password, no other passkey, no identity',
          }),
        },
      },
    },
    async (request, reply) => {
      await removePasskey(ctx, callerOf(request).accountId, parseId(request.params.id), callerOf(request).via);
      return reply.code(204).send(null);
    },
  );
}
