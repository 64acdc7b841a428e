// /app/users/{id}/profiles/ and /app/profiles/{id}/ (contract §5).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { notFound } from '../http/errors.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { findAppUser } from './app-user-queries.ts';
import { IdParams } from './field-schemas.ts';
import { loadProfileDetail } from './profile-detail.ts';
import { deleteProfile, findProfile, listProfiles } from './profile-queries.ts';
import { ProfileBody, ProfileDetailSchema, ProfilePatchBody, ProfileSchema, toProfile } from './profile-schemas.ts';
import { changeProfile, createProfile } from './profile-service.ts';
import { sendRendering, type RenderingCache } from './rendering-cache.ts';
import { startChange, writeAppData } from './write-transaction.ts';

const tags = ['profiles'];

export function registerProfileRoutes(app: App, ctx: AppContext, cache: RenderingCache): void {
  app.get('/app/users/:id/profiles/', {
    schema: { tags, summary: "An app user's profiles", params: IdParams, response: { 200: Type.Array(ProfileSchema) } },
  }, async (request) => {
    const accountId = callerOf(request).accountId;
    const appUserId = parseId(request.params.id);
    if (!await findAppUser(ctx.db.kysely, accountId, appUserId)) throw notFound();
    const rows = await listProfiles(ctx.db.kysely, accountId, appUserId);
    return rows.map((row) => toProfile(ctx, row));
  });

  app.post('/app/users/:id/profiles/', {
    schema: { tags, summary: 'Create a profile (is_default: true makes it the only default)', params: IdParams, body: ProfileBody, response: { 201: ProfileSchema } },
  }, async (request, reply) => {
    const row = await createProfile(ctx, callerOf(request).accountId, parseId(request.params.id), request.body);
    const body = toProfile(ctx, row);
    return reply.code(201).header('location', body.url).send(body);
  });

  app.get('/app/profiles/:id/', {
    schema: { tags, summary: 'A profile with its topics, items and their contents', params: IdParams, response: { 200: ProfileDetailSchema } },
  }, async (request, reply) => {
    const caller = callerOf(request);
    const id = parseId(request.params.id);
    return sendRendering(reply, cache, `profile:${id}`, caller, ctx.clock.now(), () => loadProfileDetail(ctx, caller.accountId, id));
  });

  const changeSchemas = { patch: ProfilePatchBody, put: ProfileBody };
  for (const method of ['patch', 'put'] as const) {
    app[method]('/app/profiles/:id/', {
      schema: { tags, summary: 'Rename a profile or make it the default', params: IdParams, body: changeSchemas[method], response: { 200: ProfileDetailSchema } },
    }, async (request) => changeProfile(ctx, callerOf(request).accountId, parseId(request.params.id), request.body));
  }

  app.delete('/app/profiles/:id/', {
    schema: { tags, summary: 'Delete a profile with its topics and items', params: IdParams, response: { 204: Type.Null() } },
  }, async (request, reply) => {
    const accountId = callerOf(request).accountId;
    const id = parseId(request.params.id);
    await writeAppData(ctx, async (trx) => {
      const profile = await findProfile(trx, accountId, id);
      if (!profile) throw notFound();
      await startChange(trx, profile.app_user_id);
      await deleteProfile(trx, accountId, id);
    });
    return reply.code(204).send(null);
  });
}
