// /app/users/{id}/profiles/ and /app/profiles/{id}/ (docs/app-data.md).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { NOT_ALLOWED } from './kernel/access.ts';
import { IdParams } from './kernel/field-schemas.ts';
import { loadProfileDetail } from './views/profile-detail.ts';
import { renderProfileDetail } from './views/profile-rendering.ts';
import { ProfileBody, ProfileDetailSchema, ProfilePatchBody, ProfileSchema } from './profile-schemas.ts';
import { changeProfile, createProfile, listUserProfiles, removeProfile } from './profile-service.ts';
import { sendRendering, type RenderingCache } from './views/rendering-cache.ts';
import { sendView } from './views/tree-views.ts';
import type { Current } from './kernel/conditional-write.ts';
import { createdOnce } from './kernel/idempotent-create.ts';
import { accessorTerms, changeObject, onAppUser, registerDelete } from './kernel/route-helpers.ts';
import { errors } from '../http/error-schemas.ts';

const tags = ['profiles'];

/** The detail as a GET answers it: what If-Match is checked against. */
const current: Current = { schema: ProfileDetailSchema, read: loadProfileDetail };

export function registerProfileRoutes(app: App, ctx: AppContext, cache: RenderingCache): void {
  app.get(
    '/app/users/:id/profiles/',
    {
      schema: {
        tags,
        summary: "An app user's profiles",
        params: IdParams,
        operationId: 'listProfiles',
        response: { 200: Type.Array(ProfileSchema), ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => onAppUser(request, 'read', (a, appUserId) => listUserProfiles(ctx, a, appUserId)),
  );

  app.post(
    '/app/users/:id/profiles/',
    {
      schema: {
        tags,
        summary: 'Create a profile (is_default: true makes it the only default)',
        params: IdParams,
        body: ProfileBody,
        operationId: 'createProfile',
        response: { 201: ProfileSchema, ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, idempotent: true }) },
      },
    },
    async (request, reply) =>
      createdOnce(ctx, request, reply, (terms) =>
        onAppUser(request, 'write', (a, appUserId) =>
          createProfile(ctx, a, appUserId, request.body, accessorTerms(request, a, 'profile', 'created', terms)),
        ),
      ),
  );

  app.get(
    '/app/profiles/:id/',
    {
      schema: {
        tags,
        summary: 'A profile with its topics, items and their contents',
        params: IdParams,
        operationId: 'getProfile',
        response: { 200: ProfileDetailSchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const id = parseId(request.params.id);
      const view = { kind: 'profile', id, key: `profile:${id}`, versionInLoad: true } as const;
      return sendRendering(reply, ctx, cache, view, caller, (a, kept) => renderProfileDetail(ctx, cache, reply, a, id, kept));
    },
  );

  const changeSchemas = { patch: ProfilePatchBody, put: ProfileBody };
  for (const method of ['patch', 'put'] as const) {
    app[method](
      '/app/profiles/:id/',
      {
        schema: {
          tags,
          summary: 'Rename a profile or make it the default',
          params: IdParams,
          body: changeSchemas[method],
          operationId: method === 'patch' ? 'updateProfile' : 'replaceProfile',
          response: {
            200: ProfileDetailSchema,
            ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, preconditionFailed: true }),
          },
        },
      },
      async (request, reply) =>
        sendView(
          reply,
          await changeObject(ctx, request, reply, 'profile', current, (a, id, terms) => changeProfile(ctx, a, id, request.body, terms)),
        ),
    );
  }

  registerDelete(
    app,
    ctx,
    '/app/profiles/:id/',
    'profile',
    { tags, operationId: 'deleteProfile', summary: 'Delete a profile with its topics and items' },
    current,
    (a, id, terms) => removeProfile(ctx, a, id, terms),
  );
}
