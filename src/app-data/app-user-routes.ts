// /app/users/ and /app/users/{id}/ (contract §5).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { notFound } from '../http/errors.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { removeMediaFiles } from '../media/media-cleanup.ts';
import { findAppUser, listAppUsers } from './app-user-queries.ts';
import { AppUserBody, AppUserDetailSchema, AppUserSchema, toAppUser, toAppUserDetail, type AppUserDetail, type AppUserRow } from './app-user-schemas.ts';
import { changeAppUser, createAppUser, removeAppUser } from './app-user-service.ts';
import { IdParams } from './field-schemas.ts';
import { listProfiles } from './profile-queries.ts';
import { toProfile } from './profile-schemas.ts';

const tags = ['app users'];

export function registerAppUserRoutes(app: App, ctx: AppContext): void {
  async function detail(accountId: number, row: AppUserRow): Promise<AppUserDetail> {
    const profiles = await listProfiles(ctx.db.kysely, accountId, row.id);
    return toAppUserDetail(ctx, row, profiles.map((profile) => toProfile(ctx, profile)));
  }

  app.get('/app/users/', {
    schema: { tags, summary: "The caller's app users (at most one)", response: { 200: Type.Array(AppUserSchema) } },
  }, async (request) => {
    const rows = await listAppUsers(ctx.db.kysely, callerOf(request).accountId);
    return rows.map((row) => toAppUser(ctx, row));
  });

  app.post('/app/users/', {
    schema: { tags, summary: "Create the caller's app user (name defaults to the account's first name)", body: AppUserBody, response: { 201: AppUserSchema } },
  }, async (request, reply) => {
    const row = await createAppUser(ctx, callerOf(request).accountId, request.body);
    const body = toAppUser(ctx, row);
    return reply.code(201).header('location', body.url).send(body);
  });

  app.get('/app/users/:id/', {
    schema: { tags, summary: 'An app user, with its profiles', params: IdParams, response: { 200: AppUserDetailSchema } },
  }, async (request) => {
    const accountId = callerOf(request).accountId;
    const row = await findAppUser(ctx.db.kysely, accountId, parseId(request.params.id));
    if (!row) throw notFound();
    return detail(accountId, row);
  });

  for (const method of ['patch', 'put'] as const) {
    app[method]('/app/users/:id/', {
      schema: { tags, summary: 'Change an app user’s name or quote', params: IdParams, body: AppUserBody, response: { 200: AppUserDetailSchema } },
    }, async (request) => {
      const accountId = callerOf(request).accountId;
      const row = await changeAppUser(ctx, accountId, parseId(request.params.id), request.body);
      return detail(accountId, row);
    });
  }

  app.delete('/app/users/:id/', {
    schema: { tags, summary: 'Delete an app user and everything it holds, media files included', params: IdParams, response: { 204: Type.Null() } },
  }, async (request, reply) => {
    const storageKeys = await removeAppUser(ctx, callerOf(request).accountId, parseId(request.params.id));
    await removeMediaFiles(ctx, storageKeys);
    return reply.code(204).send(null);
  });
}
