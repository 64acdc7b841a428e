// /account/profile/ (docs/accounts.md): the caller's names and language; `email` is read-only here.
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/types.ts';
import { callerOf } from '../../auth/token-auth.ts';
import { AccountWithRoleSchema, profilePatchBody, profilePutBody } from './profile-schemas.ts';
import { getProfile, updateProfile } from './profile-service.ts';
import { errors } from '../../http/error-schemas.ts';

export function registerAccountProfileRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/account/profile/',
    {
      schema: {
        tags: ['account'],
        summary: "The caller's account, and whether it is an operator's",
        operationId: 'getAccount',
        response: { 200: AccountWithRoleSchema, ...errors({ auth: true }) },
      },
    },
    (request) => getProfile(ctx, callerOf(request).accountId),
  );

  app.patch(
    '/account/profile/',
    {
      schema: {
        tags: ['account'],
        summary: 'Change first and/or last name, or the language (email is read-only: use /account/emails/)',
        body: profilePatchBody(ctx.config.languages),
        operationId: 'updateAccount',
        response: { 200: AccountWithRoleSchema, ...errors({ auth: true, body: true }) },
      },
    },
    (request) => updateProfile(ctx, callerOf(request).accountId, request.body),
  );

  app.put(
    '/account/profile/',
    {
      schema: {
        tags: ['account'],
        summary: 'Replace first and last name (both required)',
        body: profilePutBody(ctx.config.languages),
        operationId: 'replaceAccount',
        response: { 200: AccountWithRoleSchema, ...errors({ auth: true, body: true }) },
      },
    },
    (request) => updateProfile(ctx, callerOf(request).accountId, request.body),
  );
}
