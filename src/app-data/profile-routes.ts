// /app/users/{id}/profiles/ and /app/profiles/{id}/ (contract §5).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { IdParams } from './field-schemas.ts';
import { loadProfileDetail } from './profile-detail.ts';
import { ProfileBody, ProfileDetailSchema, ProfilePatchBody, ProfileSchema } from './profile-schemas.ts';
import { changeProfile, createProfile, listUserProfiles, removeProfile } from './profile-service.ts';
import { sendRendering, type RenderingCache } from './rendering-cache.ts';
import { sendView } from './tree-views.ts';
import { created, registerDelete } from './route-helpers.ts';
import { errors } from '../http/error-schemas.ts';

const tags = ['profiles'];

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
    (request) => listUserProfiles(ctx, callerOf(request).accountId, parseId(request.params.id)),
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
        response: { 201: ProfileSchema, ...errors({ auth: true, notFound: true, body: true }) },
      },
    },
    async (request, reply) =>
      created(reply, await createProfile(ctx, callerOf(request).accountId, parseId(request.params.id), request.body)),
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
      return sendRendering(reply, cache, `profile:${id}`, caller, ctx.clock.now(), () => loadProfileDetail(ctx, caller.accountId, id));
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
          response: { 200: ProfileDetailSchema, ...errors({ auth: true, notFound: true, body: true }) },
        },
      },
      async (request, reply) =>
        sendView(reply, await changeProfile(ctx, callerOf(request).accountId, parseId(request.params.id), request.body)),
    );
  }

  registerDelete(
    app,
    ctx,
    '/app/profiles/:id/',
    { tags, operationId: 'deleteProfile', summary: 'Delete a profile with its topics and items' },
    removeProfile,
  );
}
