// /app/users/{id}/emergency-contacts/ and /app/emergency-contacts/{id}/ (docs/app-data.md).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import type { App } from '../http/types.ts';
import { EmergencyContactBody, EmergencyContactPatchBody, EmergencyContactSchema } from './emergency-contact-schemas.ts';
import {
  changeEmergencyContact,
  createEmergencyContact,
  getEmergencyContact,
  listUserEmergencyContacts,
  removeEmergencyContact,
} from './emergency-contact-service.ts';
import { NOT_ALLOWED } from './kernel/access.ts';
import { IdParams } from './kernel/field-schemas.ts';
import type { Current } from './kernel/conditional-write.ts';
import { createdOnce } from './kernel/idempotent-create.ts';
import { accessorTerms, changeObject, onAppUser, onObject, registerDelete } from './kernel/route-helpers.ts';
import { errors } from '../http/error-schemas.ts';

const tags = ['emergency contacts'];

/** The detail as a GET answers it: what If-Match is checked against. */
const current: Current = { schema: EmergencyContactSchema, read: getEmergencyContact };

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
    (request) => onAppUser(request, 'read', (a, appUserId) => listUserEmergencyContacts(ctx, a, appUserId)),
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
        response: {
          201: EmergencyContactSchema,
          ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, idempotent: true }),
        },
      },
    },
    async (request, reply) =>
      createdOnce(ctx, request, reply, (terms) =>
        onAppUser(request, 'write', (a, appUserId) =>
          createEmergencyContact(ctx, a, appUserId, request.body, accessorTerms(request, a, 'emergency_contact', 'created', terms)),
        ),
      ),
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
    (request) => onObject(ctx, request, 'emergency_contact', 'read', (a, id) => getEmergencyContact(ctx, a, id)),
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
          response: {
            200: EmergencyContactSchema,
            ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, preconditionFailed: true }),
          },
        },
      },
      (request, reply) =>
        changeObject(ctx, request, reply, 'emergency_contact', current, (a, id, terms) =>
          changeEmergencyContact(ctx, a, id, request.body, terms),
        ),
    );
  }

  registerDelete(
    app,
    ctx,
    '/app/emergency-contacts/:id/',
    'emergency_contact',
    { tags, operationId: 'deleteEmergencyContact', summary: 'Delete an emergency contact' },
    current,
    (a, id, terms) => removeEmergencyContact(ctx, a, id, terms),
  );
}
