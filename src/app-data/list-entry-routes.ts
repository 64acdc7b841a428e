// /app/items/{id}/list-entries/ ({id} is the item) and /app/list-entries/{id}/ (contract §5).
// An image item has no list: its list-entries collection is 404, like a missing item.
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { notFound } from '../http/errors.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { IdParams } from './field-schemas.ts';
import { countEntries, deleteEntry, findEntry, findListOfItem, insertEntry, listEntries, updateEntry } from './list-entry-queries.ts';
import { ListEntryBody, ListEntryPatchBody, ListEntrySchema, toListEntry } from './list-entry-schemas.ts';
import { enforceQuota } from './quotas.ts';
import { startChange, writeAppData } from './write-transaction.ts';

const tags = ['list entries'];

export function registerListEntryRoutes(app: App, ctx: AppContext): void {
  app.get('/app/items/:id/list-entries/', {
    schema: { tags, summary: "A list item's entries", params: IdParams, response: { 200: Type.Array(ListEntrySchema) } },
  }, async (request) => {
    const accountId = callerOf(request).accountId;
    const list = await findListOfItem(ctx.db.kysely, accountId, parseId(request.params.id));
    if (!list) throw notFound();
    const rows = await listEntries(ctx.db.kysely, accountId, list.list_content_id);
    return rows.map((row) => toListEntry(ctx, row));
  });

  app.post('/app/items/:id/list-entries/', {
    schema: { tags, summary: 'Add an entry at the end of a list item', params: IdParams, body: ListEntryBody, response: { 201: ListEntrySchema } },
  }, async (request, reply) => {
    const accountId = callerOf(request).accountId;
    const itemId = parseId(request.params.id);
    const row = await writeAppData(ctx, async (trx) => {
      const list = await findListOfItem(trx, accountId, itemId);
      if (!list) throw notFound();
      await startChange(trx, list.app_user_id);
      enforceQuota(await countEntries(trx, accountId, list.list_content_id), 1, ctx.config.quotas.entriesPerItem, 'entries in a list');
      return insertEntry(trx, accountId, list.list_content_id, request.body.text);
    });
    const body = toListEntry(ctx, row);
    return reply.code(201).header('location', body.url).send(body);
  });

  app.get('/app/list-entries/:id/', {
    schema: { tags, summary: 'A list entry', params: IdParams, response: { 200: ListEntrySchema } },
  }, async (request) => {
    const row = await findEntry(ctx.db.kysely, callerOf(request).accountId, parseId(request.params.id));
    if (!row) throw notFound();
    return toListEntry(ctx, row);
  });

  const changeSchemas = { patch: ListEntryPatchBody, put: ListEntryBody };
  for (const method of ['patch', 'put'] as const) {
    app[method]('/app/list-entries/:id/', {
      schema: { tags, summary: "Change a list entry's text", params: IdParams, body: changeSchemas[method], response: { 200: ListEntrySchema } },
    }, async (request) => {
      const accountId = callerOf(request).accountId;
      const id = parseId(request.params.id);
      const { text } = request.body;
      const row = await writeAppData(ctx, async (trx) => {
        const entry = await findEntry(trx, accountId, id);
        if (!entry) throw notFound();
        await startChange(trx, entry.app_user_id);
        return text === undefined ? entry : updateEntry(trx, accountId, id, text);
      });
      if (!row) throw notFound();
      return toListEntry(ctx, row);
    });
  }

  app.delete('/app/list-entries/:id/', {
    schema: { tags, summary: 'Delete a list entry', params: IdParams, response: { 204: Type.Null() } },
  }, async (request, reply) => {
    const accountId = callerOf(request).accountId;
    const id = parseId(request.params.id);
    await writeAppData(ctx, async (trx) => {
      const entry = await findEntry(trx, accountId, id);
      if (!entry) throw notFound();
      await startChange(trx, entry.app_user_id);
      await deleteEntry(trx, accountId, id);
    });
    return reply.code(204).send(null);
  });
}
