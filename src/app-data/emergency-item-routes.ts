// /app/users/{id}/emergency-items/ and /app/emergency-items/{id}/ (docs/app-data.md; creates answer 201).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import type { App } from '../http/types.ts';
import { EmergencyItemBody, EmergencyItemPatchBody, EmergencyItemSchema } from './emergency-item-schemas.ts';
import {
  changeEmergencyItem,
  createEmergencyItem,
  getEmergencyItem,
  listUserEmergencyItems,
  removeEmergencyItem,
} from './emergency-item-service.ts';
import { NOT_ALLOWED } from './kernel/access.ts';
import { IdParams } from './kernel/field-schemas.ts';
import type { Current } from './kernel/conditional-write.ts';
import { createdOnce } from './kernel/idempotent-create.ts';
import { accessorTerms, changeObject, onAppUser, onObject, registerDelete } from './kernel/route-helpers.ts';
import { errors } from '../http/error-schemas.ts';

const tags = ['emergency items'];

/** The detail as a GET answers it: what If-Match is checked against. */
const current: Current = { schema: EmergencyItemSchema, read: getEmergencyItem };

export function registerEmergencyItemRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/app/users/:id/emergency-items/',
    {
      schema: {
        tags,
        summary: "An app user's emergency items",
        params: IdParams,
        operationId: 'listEmergencyItems',
        response: { 200: Type.Array(EmergencyItemSchema), ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => onAppUser(request, 'read', (a, appUserId) => listUserEmergencyItems(ctx, a, appUserId)),
  );

  app.post(
    '/app/users/:id/emergency-items/',
    {
      schema: {
        tags,
        summary: 'Create an emergency item',
        params: IdParams,
        body: EmergencyItemBody,
        operationId: 'createEmergencyItem',
        response: {
          201: EmergencyItemSchema,
          ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, idempotent: true }),
        },
      },
    },
    async (request, reply) =>
      createdOnce(ctx, request, reply, (terms) =>
        onAppUser(request, 'write', (a, appUserId) =>
          createEmergencyItem(ctx, a, appUserId, request.body, accessorTerms(request, a, 'emergency_item', 'created', terms)),
        ),
      ),
  );

  app.get(
    '/app/emergency-items/:id/',
    {
      schema: {
        tags,
        summary: 'An emergency item',
        params: IdParams,
        operationId: 'getEmergencyItem',
        response: { 200: EmergencyItemSchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => onObject(ctx, request, 'emergency_item', 'read', (a, id) => getEmergencyItem(ctx, a, id)),
  );

  const changeSchemas = { patch: EmergencyItemPatchBody, put: EmergencyItemBody };
  for (const method of ['patch', 'put'] as const) {
    app[method](
      '/app/emergency-items/:id/',
      {
        schema: {
          tags,
          summary: 'Change an emergency item',
          params: IdParams,
          body: changeSchemas[method],
          operationId: method === 'patch' ? 'updateEmergencyItem' : 'replaceEmergencyItem',
          response: {
            200: EmergencyItemSchema,
            ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, preconditionFailed: true }),
          },
        },
      },
      (request, reply) =>
        changeObject(ctx, request, reply, 'emergency_item', current, (a, id, terms) =>
          changeEmergencyItem(ctx, a, id, request.body, terms),
        ),
    );
  }

  registerDelete(
    app,
    ctx,
    '/app/emergency-items/:id/',
    'emergency_item',
    {
      tags,
      operationId: 'deleteEmergencyItem',
      summary: 'Delete an emergency item (its media resource stays in the gallery)',
    },
    current,
    (a, id, terms) => removeEmergencyItem(ctx, a, id, terms),
  );
}
