// /app/items/{id}/list-entries/ ({id} is the item) and /app/list-entries/{id}/ (contract §5).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { IdParams } from './field-schemas.ts';
import { ListEntryBody, ListEntryPatchBody, ListEntrySchema } from './list-entry-schemas.ts';
import { changeEntry, createEntry, getEntry, listItemEntries, removeEntry } from './list-entry-service.ts';
import { created, registerDelete } from './route-helpers.ts';
import { errors } from '../http/error-schemas.ts';

const tags = ['list entries'];

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
    (request) => listItemEntries(ctx, callerOf(request).accountId, parseId(request.params.id)),
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
        response: { 201: ListEntrySchema, ...errors({ auth: true, notFound: true, body: true }) },
      },
    },
    async (request, reply) => created(reply, await createEntry(ctx, callerOf(request).accountId, parseId(request.params.id), request.body)),
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
    (request) => getEntry(ctx, callerOf(request).accountId, parseId(request.params.id)),
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
          response: { 200: ListEntrySchema, ...errors({ auth: true, notFound: true, body: true }) },
        },
      },
      (request) => changeEntry(ctx, callerOf(request).accountId, parseId(request.params.id), request.body),
    );
  }

  registerDelete(app, ctx, '/app/list-entries/:id/', { tags, operationId: 'deleteListEntry', summary: 'Delete a list entry' }, removeEntry);
}
