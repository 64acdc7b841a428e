// /app/items/{id}/list-entries/ ({id} is the item) and /app/list-entries/{id}/ (docs/app-data.md).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import type { App } from '../http/types.ts';
import { NOT_ALLOWED } from './kernel/access.ts';
import { IdParams } from './kernel/field-schemas.ts';
import { ListEntryBody, ListEntryPatchBody, ListEntrySchema } from './list-entry-schemas.ts';
import { changeEntry, createEntry, getEntry, listItemEntries, removeEntry } from './list-entry-service.ts';
import type { Current } from './kernel/conditional-write.ts';
import { createdOnce } from './kernel/idempotent-create.ts';
import { accessorTerms, changeObject, onObject, registerDelete } from './kernel/route-helpers.ts';
import { errors } from '../http/error-schemas.ts';

const tags = ['list entries'];

/** The detail as a GET answers it: what If-Match is checked against. */
const current: Current = { schema: ListEntrySchema, read: getEntry };

export function registerListEntryRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/app/items/:id/list-entries/',
    {
      schema: {
        tags,
        summary: "A list item's entries",
        params: IdParams,
        operationId: 'listListEntries',
        response: { 200: Type.Array(ListEntrySchema), ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => onObject(ctx, request, 'item', 'read', (a, id) => listItemEntries(ctx, a, id)),
  );

  app.post(
    '/app/items/:id/list-entries/',
    {
      schema: {
        tags,
        summary: 'Add an entry at the end of a list item',
        params: IdParams,
        body: ListEntryBody,
        operationId: 'createListEntry',
        response: { 201: ListEntrySchema, ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, idempotent: true }) },
      },
    },
    async (request, reply) =>
      createdOnce(ctx, request, reply, (terms) =>
        onObject(ctx, request, 'item', 'write', (a, id) =>
          createEntry(ctx, a, id, request.body, accessorTerms(request, a, 'list_entry', 'created', terms)),
        ),
      ),
  );

  app.get(
    '/app/list-entries/:id/',
    {
      schema: {
        tags,
        summary: 'A list entry',
        params: IdParams,
        operationId: 'getListEntry',
        response: { 200: ListEntrySchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => onObject(ctx, request, 'list_entry', 'read', (a, id) => getEntry(ctx, a, id)),
  );

  const changeSchemas = { patch: ListEntryPatchBody, put: ListEntryBody };
  for (const method of ['patch', 'put'] as const) {
    app[method](
      '/app/list-entries/:id/',
      {
        schema: {
          tags,
          summary: "Change a list entry's text",
          params: IdParams,
          body: changeSchemas[method],
          operationId: method === 'patch' ? 'updateListEntry' : 'replaceListEntry',
          response: {
            200: ListEntrySchema,
            ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, preconditionFailed: true }),
          },
        },
      },
      (request, reply) =>
        changeObject(ctx, request, reply, 'list_entry', current, (a, id, terms) => changeEntry(ctx, a, id, request.body, terms)),
    );
  }

  registerDelete(
    app,
    ctx,
    '/app/list-entries/:id/',
    'list_entry',
    { tags, operationId: 'deleteListEntry', summary: 'Delete a list entry' },
    current,
    (a, id, terms) => removeEntry(ctx, a, id, terms),
  );
}
