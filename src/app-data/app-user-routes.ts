// /app/users/ and /app/users/{id}/ (docs/app-data.md).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import type { App } from '../http/types.ts';
import { AppUserBody, AppUserDetailSchema, AppUserSchema } from './app-user-schemas.ts';
import { changeAppUser, createAppUser, getAppUser, listCallerAppUsers, removeAppUser } from './app-user-service.ts';
import { NOT_ALLOWED } from './kernel/access.ts';
import { IdParams } from './kernel/field-schemas.ts';
import { writeIfMatch, type Current } from './kernel/conditional-write.ts';
import { createdOnce } from './kernel/idempotent-create.ts';
import { onAppUser, registerDelete } from './kernel/route-helpers.ts';
import { errors } from '../http/error-schemas.ts';

const tags = ['app users'];

/** The detail as a GET answers it: what If-Match is checked against. */
const current: Current = { schema: AppUserDetailSchema, read: getAppUser };

export function registerAppUserRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/app/users/',
    {
      schema: {
        tags,
        summary: "The caller's own app user (at most one), then those shared with them, by id",
        operationId: 'listAppUsers',
        response: { 200: Type.Array(AppUserSchema), ...errors({ auth: true }) },
      },
    },
    (request) => listCallerAppUsers(ctx, callerOf(request)),
  );

  app.post(
    '/app/users/',
    {
      schema: {
        tags,
        summary: "Create the caller's app user (name defaults to the account's first name)",
        body: AppUserBody,
        operationId: 'createAppUser',
        response: { 201: AppUserSchema, ...errors({ auth: true, body: true, idempotent: true }) },
      },
    },
    async (request, reply) =>
      createdOnce(ctx, request, reply, (terms) => createAppUser(ctx, callerOf(request).accountId, request.body, terms)),
  );

  app.get(
    '/app/users/:id/',
    {
      schema: {
        tags,
        summary: 'An app user, with its profiles',
        params: IdParams,
        operationId: 'getAppUser',
        response: { 200: AppUserDetailSchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => onAppUser(request, 'read', (a, id) => getAppUser(ctx, a, id)),
  );

  for (const method of ['patch', 'put'] as const) {
    app[method](
      '/app/users/:id/',
      {
        schema: {
          tags,
          summary: 'Change an app user’s name or quote',
          params: IdParams,
          body: AppUserBody,
          operationId: method === 'patch' ? 'updateAppUser' : 'replaceAppUser',
          response: {
            200: AppUserDetailSchema,
            ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, preconditionFailed: true }),
          },
        },
      },
      (request, reply) =>
        onAppUser(request, 'owner', (a, id) =>
          writeIfMatch(ctx, request, reply, a, id, current, (terms) => changeAppUser(ctx, a, id, request.body, terms)),
        ),
    );
  }

  registerDelete(
    app,
    ctx,
    '/app/users/:id/',
    'app_user',
    { tags, operationId: 'deleteAppUser', summary: 'Delete an app user and everything it holds, media files included' },
    current,
    (a, id, terms) => removeAppUser(ctx, a, id, terms),
  );
}
