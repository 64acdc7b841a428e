// /app/users/{id}/emergency-contacts/ and /app/emergency-contacts/{id}/ (contract §5).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { notFound } from '../http/errors.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { findAppUser } from './app-user-queries.ts';
import {
  countEmergencyContacts, deleteEmergencyContact, findEmergencyContact, insertEmergencyContact, listEmergencyContacts, updateEmergencyContact,
  type EmergencyContactValues,
} from './emergency-contact-queries.ts';
import {
  EmergencyContactBody, EmergencyContactPatchBody, EmergencyContactSchema, toEmergencyContact, type EmergencyContactChanges,
} from './emergency-contact-schemas.ts';
import { IdParams } from './field-schemas.ts';
import { enforceQuota } from './quotas.ts';
import { startChange, writeAppData } from './write-transaction.ts';

const tags = ['emergency contacts'];

function definedValues(changes: EmergencyContactChanges): EmergencyContactValues {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as EmergencyContactValues;
}

export function registerEmergencyContactRoutes(app: App, ctx: AppContext): void {
  app.get('/app/users/:id/emergency-contacts/', {
    schema: { tags, summary: "An app user's emergency contacts", params: IdParams, response: { 200: Type.Array(EmergencyContactSchema) } },
  }, async (request) => {
    const accountId = callerOf(request).accountId;
    const appUserId = parseId(request.params.id);
    if (!await findAppUser(ctx.db.kysely, accountId, appUserId)) throw notFound();
    const rows = await listEmergencyContacts(ctx.db.kysely, accountId, appUserId);
    return rows.map((row) => toEmergencyContact(ctx, row));
  });

  app.post('/app/users/:id/emergency-contacts/', {
    schema: { tags, summary: 'Create an emergency contact', params: IdParams, body: EmergencyContactBody, response: { 201: EmergencyContactSchema } },
  }, async (request, reply) => {
    const accountId = callerOf(request).accountId;
    const appUserId = parseId(request.params.id);
    const input = request.body;
    const row = await writeAppData(ctx, async (trx) => {
      if (!await findAppUser(trx, accountId, appUserId)) throw notFound();
      await startChange(trx, appUserId);
      enforceQuota(await countEmergencyContacts(trx, accountId, appUserId), 1, ctx.config.quotas.emergencyContactsPerUser, 'emergency contacts per app user');
      return insertEmergencyContact(trx, accountId, appUserId, {
        name: input.name,
        relation: input.relation ?? '',
        phone_number: input.phone_number,
        alt_phone_number: input.alt_phone_number ?? '',
        email: input.email ?? '',
      });
    });
    const body = toEmergencyContact(ctx, row);
    return reply.code(201).header('location', body.url).send(body);
  });

  app.get('/app/emergency-contacts/:id/', {
    schema: { tags, summary: 'An emergency contact', params: IdParams, response: { 200: EmergencyContactSchema } },
  }, async (request) => {
    const row = await findEmergencyContact(ctx.db.kysely, callerOf(request).accountId, parseId(request.params.id));
    if (!row) throw notFound();
    return toEmergencyContact(ctx, row);
  });

  const changeSchemas = { patch: EmergencyContactPatchBody, put: EmergencyContactBody };
  for (const method of ['patch', 'put'] as const) {
    app[method]('/app/emergency-contacts/:id/', {
      schema: { tags, summary: 'Change an emergency contact', params: IdParams, body: changeSchemas[method], response: { 200: EmergencyContactSchema } },
    }, async (request) => {
      const accountId = callerOf(request).accountId;
      const id = parseId(request.params.id);
      const values = definedValues(request.body);
      const row = await writeAppData(ctx, async (trx) => {
        const contact = await findEmergencyContact(trx, accountId, id);
        if (!contact) throw notFound();
        await startChange(trx, contact.app_user_id);
        return Object.keys(values).length === 0 ? contact : updateEmergencyContact(trx, accountId, id, values);
      });
      if (!row) throw notFound();
      return toEmergencyContact(ctx, row);
    });
  }

  app.delete('/app/emergency-contacts/:id/', {
    schema: { tags, summary: 'Delete an emergency contact', params: IdParams, response: { 204: Type.Null() } },
  }, async (request, reply) => {
    const accountId = callerOf(request).accountId;
    const id = parseId(request.params.id);
    await writeAppData(ctx, async (trx) => {
      const contact = await findEmergencyContact(trx, accountId, id);
      if (!contact) throw notFound();
      await startChange(trx, contact.app_user_id);
      await deleteEmergencyContact(trx, accountId, id);
    });
    return reply.code(204).send(null);
  });
}
