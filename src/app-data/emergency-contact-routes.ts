// /app/users/{id}/emergency-contacts/ and /app/emergency-contacts/{id}/ (contract §5).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { EmergencyContactBody, EmergencyContactPatchBody, EmergencyContactSchema } from './emergency-contact-schemas.ts';
import {
  changeEmergencyContact,
  createEmergencyContact,
  getEmergencyContact,
  listUserEmergencyContacts,
  removeEmergencyContact,
} from './emergency-contact-service.ts';
import { IdParams } from './field-schemas.ts';
import { created, registerDelete } from './route-helpers.ts';
import { errors } from '../http/error-schemas.ts';

const tags = ['emergency contacts'];

export function registerEmergencyContactRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/app/users/:id/emergency-contacts/',
    {
      schema: {
        tags,
        summary: "An app user's emergency contacts",
        params: IdParams,
        operationId: 'listEmergencyContacts',
        response: { 200: Type.Array(EmergencyContactSchema), ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => listUserEmergencyContacts(ctx, callerOf(request).accountId, parseId(request.params.id)),
  );

  app.post(
    '/app/users/:id/emergency-contacts/',
    {
      schema: {
        tags,
        summary: 'Create an emergency contact',
        params: IdParams,
        body: EmergencyContactBody,
        operationId: 'createEmergencyContact',
        response: { 201: EmergencyContactSchema, ...errors({ auth: true, notFound: true, body: true }) },
      },
    },
    async (request, reply) =>
      created(reply, await createEmergencyContact(ctx, callerOf(request).accountId, parseId(request.params.id), request.body)),
  );

  app.get(
    '/app/emergency-contacts/:id/',
    {
      schema: {
        tags,
        summary: 'An emergency contact',
        params: IdParams,
        operationId: 'getEmergencyContact',
        response: { 200: EmergencyContactSchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => getEmergencyContact(ctx, callerOf(request).accountId, parseId(request.params.id)),
  );

  const changeSchemas = { patch: EmergencyContactPatchBody, put: EmergencyContactBody };
  for (const method of ['patch', 'put'] as const) {
    app[method](
      '/app/emergency-contacts/:id/',
      {
        schema: {
          tags,
          summary: 'Change an emergency contact',
          params: IdParams,
          body: changeSchemas[method],
          operationId: method === 'patch' ? 'updateEmergencyContact' : 'replaceEmergencyContact',
          response: { 200: EmergencyContactSchema, ...errors({ auth: true, notFound: true, body: true }) },
        },
      },
      (request) => changeEmergencyContact(ctx, callerOf(request).accountId, parseId(request.params.id), request.body),
    );
  }

  registerDelete(
    app,
    ctx,
    '/app/emergency-contacts/:id/',
    { tags, operationId: 'deleteEmergencyContact', summary: 'Delete an emergency contact' },
    removeEmergencyContact,
  );
}
