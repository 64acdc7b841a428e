// /app/topics/{id}/items/ and /app/items/{id}/ (contract §5).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { IdParams } from './field-schemas.ts';
import { ItemBody, ItemPatchBody, ItemSchema } from './item-schemas.ts';
import { createItem, getItem, removeItem, updateItem } from './item-service.ts';
import { loadItems } from './item-loads.ts';
import { sendRendering, type RenderingCache } from './rendering-cache.ts';
import { created, registerDelete } from './route-helpers.ts';
import { writeItems } from './paged-tree.ts';
import { findTopicWithHeld } from './tree-queries.ts';
import { fitsInline, spoolView } from './tree-views.ts';
import { errors } from '../http/error-schemas.ts';

const tags = ['items'];

export function registerItemRoutes(app: App, ctx: AppContext, cache: RenderingCache): void {
  app.get(
    '/app/topics/:id/items/',
    {
      schema: {
        tags,
        summary: "A topic's items with their contents",
        params: IdParams,
        operationId: 'listItems',
        response: { 200: Type.Array(ItemSchema), ...errors({ auth: true, notFound: true }) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const topicId = parseId(request.params.id);
      return sendRendering(reply, cache, `topic-items:${topicId}`, caller, ctx.clock.now(), async () => {
        const topic = await findTopicWithHeld(ctx.db.kysely, caller.accountId, topicId);
        if (!topic) return undefined;
        if (!fitsInline(topic)) {
          return spoolView(
            ctx,
            (db) => findTopicWithHeld(db, caller.accountId, topicId),
            async (db, out, current) => {
              out.json.openArray();
              await writeItems(ctx, db, out, caller.accountId, current);
              out.json.close();
            },
          );
        }
        return loadItems(ctx, ctx.db.kysely, caller.accountId, { topicId });
      });
    },
  );

  app.post(
    '/app/topics/:id/items/',
    {
      schema: {
        tags,
        summary: 'Create an item with exactly one of image_content and list_content',
        params: IdParams,
        body: ItemBody,
        operationId: 'createItem',
        response: { 201: ItemSchema, ...errors({ auth: true, notFound: true, body: true }) },
      },
    },
    async (request, reply) => created(reply, await createItem(ctx, callerOf(request).accountId, parseId(request.params.id), request.body)),
  );

  app.get(
    '/app/items/:id/',
    {
      schema: {
        tags,
        summary: 'An item with its content',
        params: IdParams,
        operationId: 'getItem',
        response: { 200: ItemSchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => getItem(ctx, callerOf(request).accountId, parseId(request.params.id)),
  );

  const changeSchemas = { patch: ItemPatchBody, put: ItemBody };
  for (const method of ['patch', 'put'] as const) {
    app[method](
      '/app/items/:id/',
      {
        schema: {
          tags,
          summary: 'Change an item’s name and the fields of its content (list_content.entries replaces the list)',
          params: IdParams,
          body: changeSchemas[method],
          operationId: method === 'patch' ? 'updateItem' : 'replaceItem',
          response: { 200: ItemSchema, ...errors({ auth: true, notFound: true, body: true }) },
        },
      },
      async (request) => updateItem(ctx, callerOf(request).accountId, parseId(request.params.id), request.body),
    );
  }

  registerDelete(app, ctx, '/app/items/:id/', { tags, operationId: 'deleteItem', summary: 'Delete an item with its content' }, removeItem);
}
