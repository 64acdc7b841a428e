// /app/users/{id}/emergency-items/ and /app/emergency-items/{id}/ (contract §5; creates answer 201).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { notFound } from '../http/errors.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { findAppUser } from './app-user-queries.ts';
import { deleteEmergencyItem, findEmergencyItem, listEmergencyItems } from './emergency-item-queries.ts';
import { EmergencyItemBody, EmergencyItemPatchBody, EmergencyItemSchema, toEmergencyItem } from './emergency-item-schemas.ts';
import { changeEmergencyItem, createEmergencyItem } from './emergency-item-service.ts';
import { IdParams } from './field-schemas.ts';
import { startChange, writeAppData } from './write-transaction.ts';

const tags = ['emergency items'];

export function registerEmergencyItemRoutes(app: App, ctx: AppContext): void {
  app.get('/app/users/:id/emergency-items/', {
    schema: { tags, summary: "An app user's emergency items", params: IdParams, response: { 200: Type.Array(EmergencyItemSchema) } },
  }, async (request) => {
    const accountId = callerOf(request).accountId;
    const appUserId = parseId(request.params.id);
    if (!await findAppUser(ctx.db.kysely, accountId, appUserId)) throw notFound();
    const rows = await listEmergencyItems(ctx.db.kysely, accountId, appUserId);
    return rows.map((row) => toEmergencyItem(ctx, row));
  });

  app.post('/app/users/:id/emergency-items/', {
    schema: { tags, summary: 'Create an emergency item', params: IdParams, body: EmergencyItemBody, response: { 201: EmergencyItemSchema } },
  }, async (request, reply) => {
    const row = await createEmergencyItem(ctx, callerOf(request).accountId, parseId(request.params.id), request.body);
    const body = toEmergencyItem(ctx, row);
    return reply.code(201).header('location', body.url).send(body);
  });

  app.get('/app/emergency-items/:id/', {
    schema: { tags, summary: 'An emergency item', params: IdParams, response: { 200: EmergencyItemSchema } },
  }, async (request) => {
    const row = await findEmergencyItem(ctx.db.kysely, callerOf(request).accountId, parseId(request.params.id));
    if (!row) throw notFound();
    return toEmergencyItem(ctx, row);
  });

  const changeSchemas = { patch: EmergencyItemPatchBody, put: EmergencyItemBody };
  for (const method of ['patch', 'put'] as const) {
    app[method]('/app/emergency-items/:id/', {
      schema: { tags, summary: 'Change an emergency item', params: IdParams, body: changeSchemas[method], response: { 200: EmergencyItemSchema } },
    }, async (request) => {
      const row = await changeEmergencyItem(ctx, callerOf(request).accountId, parseId(request.params.id), request.body);
      return toEmergencyItem(ctx, row);
    });
  }

  app.delete('/app/emergency-items/:id/', {
    schema: { tags, summary: 'Delete an emergency item (its media resource stays in the gallery)', params: IdParams, response: { 204: Type.Null() } },
  }, async (request, reply) => {
    const accountId = callerOf(request).accountId;
    const id = parseId(request.params.id);
    await writeAppData(ctx, async (trx) => {
      const item = await findEmergencyItem(trx, accountId, id);
      if (!item) throw notFound();
      await startChange(trx, item.app_user_id);
      await deleteEmergencyItem(trx, accountId, id);
    });
    return reply.code(204).send(null);
  });
}
